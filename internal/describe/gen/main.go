// Command gen writes docs/reference/configuration.md from the registries of agent types and task
// families (describe.Reference): go generate ./internal/describe.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/temple-rl/temple/internal/describe"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen PATH (docs/reference/configuration.md)")
		os.Exit(2)
	}
	var b bytes.Buffer
	if err := describe.Reference(&b); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
