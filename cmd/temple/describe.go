package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/internal/describe"
	"github.com/temple-rl/temple/internal/suggest"
)

func describeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "describe [types|families] [NAME...]",
		Short: "Print every agent type's and task family's config keys, with defaults, bounds and what they mean",
		Long: "describe prints the config keys of agent types (agents: - type: NAME) and task families\n" +
			"(tasks: family: NAME) from their registries: each key's default, its bound and one line on\n" +
			"what it is. Without arguments it prints both; \"types\" or \"families\" prints one of them;\n" +
			"names print only those. docs/reference/configuration.md is generated from the same source.",
		RunE: func(cmd *cobra.Command, args []string) error {
			types, families := describe.AgentTypes(), describe.TaskFamilies()
			if len(args) > 0 && (args[0] == "types" || args[0] == "families") {
				if args[0] == "types" {
					families = nil
				} else {
					types = nil
				}
				args = args[1:]
			}
			if len(args) > 0 {
				var err error
				if types, families, err = pick(args, types, families); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if len(types) > 0 {
				fmt.Fprintln(out, "Agent types (agents: - type: NAME, then its keys):")
				fmt.Fprintln(out)
				if err := describe.Text(out, types); err != nil {
					return err
				}
			}
			if len(families) > 0 {
				fmt.Fprintln(out, "Task families (tasks: family: NAME, then its keys):")
				fmt.Fprintln(out)
				return describe.Text(out, families)
			}
			return nil
		},
	}
}

// pick keeps the entries named; an unknown name fails with the names there are and a suggestion.
func pick(names []string, types, families []describe.Entry) ([]describe.Entry, []describe.Entry, error) {
	var all []string
	for _, e := range append(slices.Clone(types), families...) {
		all = append(all, e.Name)
	}
	for _, n := range names {
		if !slices.Contains(all, n) {
			return nil, nil, fmt.Errorf("no agent type or task family %q (there are %s)%s", n, strings.Join(all, ", "), suggest.DidYouMean(n, all))
		}
	}
	keep := func(es []describe.Entry) []describe.Entry {
		return slices.DeleteFunc(es, func(e describe.Entry) bool { return !slices.Contains(names, e.Name) })
	}
	return keep(types), keep(families), nil
}
