// Command temple runs TempLe experiments: the built-in default, a YAML config, or a preset that
// reproduces an experiment of the paper; it tunes, compares and reports. The command itself is
// package cli, so that a program of another module can run it with learners of its own.
package main

import "github.com/temple-rl/temple/cli"

func main() { cli.Main() }
