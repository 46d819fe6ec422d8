package custom

import (
	"fmt"
	"strings"
	"testing"
)

// chainText is a task of S numbered states and 2 actions, each with 2 outcomes, in JSON or in
// YAML (flow style, one transition per line).
func chainText(S int, yaml bool) []byte {
	var b strings.Builder
	if yaml {
		fmt.Fprintf(&b, "format: temple-mdp/v1\ntasks:\n  - name: chain\n    states: %d\n    actions: 2\n    start: 0\n    transitions:\n", S)
	} else {
		fmt.Fprintf(&b, "{\"format\": \"temple-mdp/v1\", \"tasks\": [{\"name\": \"chain\", \"states\": %d, \"actions\": 2, \"start\": 0, \"transitions\": [", S)
	}
	for s := range S {
		for a := range 2 {
			n1, n2 := (s+1)%S, (s+7+a)%S
			switch {
			case yaml:
				fmt.Fprintf(&b, "      - {state: %d, action: %d, outcomes: [{next: %d, p: 0.25, r: -1}, {next: %d, p: 0.75, r: 1}]}\n", s, a, n1, n2)
			default:
				if s+a > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "\n{\"state\": %d, \"action\": %d, \"outcomes\": [{\"next\": %d, \"p\": 0.25, \"r\": -1}, {\"next\": %d, \"p\": 0.75, \"r\": 1}]}", s, a, n1, n2)
			}
		}
	}
	if !yaml {
		b.WriteString("]}]}\n")
	}
	return []byte(b.String())
}

// BenchmarkParse reads a task of 20 000 states in each syntax; MB/s is of the file's text and
// B/op, set against the text's size, gives the memory a file takes to read.
func BenchmarkParse(b *testing.B) {
	for _, format := range []string{"json", "yaml"} {
		b.Run(format, func(b *testing.B) {
			data := chainText(20_000, format == "yaml")
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(data, format); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
