package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/cli/describe"
	"github.com/temple-rl/temple/internal/suggest"
)

// describeSection is one part of temple describe's output: a group of entries and its heading.
type describeSection struct {
	name    string // the argument that prints it alone
	heading string
	entries []describe.Entry
}

func describeCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "describe [config|types|families] [NAME...]",
		Short: "Print every config key — the config's own, each agent type's and task family's — with defaults, bounds and what they mean",
		Long: "describe prints the keys of a config: its top-level keys and those of its oracle:, output:,\n" +
			"sweep: and scaling: blocks (\"config\"), of agent types (agents: - type: NAME, \"types\") and of\n" +
			"task families (tasks: family: NAME, \"families\"): each key's default, its bound and one line\n" +
			"on what it is. Without arguments it prints all three; names print only those entries\n" +
			"(temple describe oracle rmax), BLOCK.KEY one key (temple describe oracle.enabled).\n" +
			"docs/reference/configuration.md is generated from the same source.",
		RunE: func(cmd *cobra.Command, args []string) error {
			sections := []describeSection{
				{"config", "Config keys (top level, then each block's own keys):", describe.Config()},
				{"types", "Agent types (agents: - type: NAME, then its keys):", describe.AgentTypes()},
				{"families", "Task families (tasks: family: NAME, then its keys):", describe.TaskFamilies()},
			}
			if len(args) > 0 {
				if k := slices.IndexFunc(sections, func(s describeSection) bool { return s.name == args[0] }); k >= 0 {
					sections, args = sections[k:k+1], args[1:]
				}
			}
			if len(args) > 0 {
				if err := pick(args, sections); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				all := map[string][]describe.Entry{}
				for _, s := range sections {
					all[s.name] = append([]describe.Entry{}, s.entries...)
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", " ")
				enc.SetEscapeHTML(false)
				return enc.Encode(all)
			}
			for _, s := range sections {
				if len(s.entries) == 0 {
					continue
				}
				fmt.Fprintln(out, s.heading)
				fmt.Fprintln(out)
				if err := describe.Text(out, s.entries); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print JSON instead: {"config"|"types"|"families": [{"name", "summary", "params": [{"key", "type", "default", "range", "doc"}], "note"}]}`)
	return cmd
}

// pick keeps in each section the entries named; a name BLOCK.KEY (oracle.enabled, rmax.m) keeps
// that entry with that key alone. An unknown name fails with the names there are and a
// suggestion.
func pick(names []string, sections []describeSection) error {
	var all []string
	for _, s := range sections {
		for _, e := range s.entries {
			all = append(all, e.Name)
		}
	}
	keys := map[string][]string{} // entry name → the keys asked for (none: every key)
	for _, n := range names {
		entry, key, dotted := strings.Cut(n, ".")
		if !slices.Contains(all, entry) {
			return fmt.Errorf("no config block, agent type or task family %q (there are %s)%s", entry, strings.Join(all, ", "), suggest.DidYouMean(entry, all))
		}
		if !dotted {
			keys[entry] = nil
		} else if k, ok := keys[entry]; !ok || k != nil {
			keys[entry] = append(k, key)
		}
	}
	for i := range sections {
		var kept []describe.Entry
		for _, e := range sections[i].entries {
			want, ok := keys[e.Name]
			if !ok {
				continue
			}
			if want != nil {
				var params, have []string
				e.Params = slices.DeleteFunc(slices.Clone(e.Params), func(p describe.Param) bool {
					have = append(have, p.Key)
					return !slices.Contains(want, p.Key)
				})
				for _, p := range e.Params {
					params = append(params, p.Key)
				}
				for _, k := range want {
					if !slices.Contains(params, k) {
						return fmt.Errorf("%s has no key %q (it has %s)%s", e.Name, k, strings.Join(have, ", "), suggest.DidYouMean(k, have))
					}
				}
			}
			kept = append(kept, e)
		}
		sections[i].entries = kept
	}
	return nil
}
