// Command own-learner-go is temple's command with a learner of its own module registered
// (learner.go): `go run . run config.yaml` runs, tunes and compares it as any of temple's.
package main

import "github.com/temple-rl/temple/cli"

func main() { cli.Main() }
