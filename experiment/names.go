package experiment

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/temple-rl/temple/results"
)

// MaxNameBytes is the longest experiment or agent name, in bytes: an experiment's name is a
// directory (runs/NAME) and an agent's is in its cells' file names (run-RRR--NAME.jsonl), which
// must stay under the file systems' 255 bytes.
const MaxNameBytes = 100

// nameRule says what a name may be, for the messages.
const nameRule = "a name is 1 to 100 bytes of letters, digits, spaces and punctuation, without / or \\ or control characters, " +
	"and does not start with a dot"

// validateNames checks the experiment's name and its agents' before any work: each must be a
// safe single file-name component (checkName), and no two agents may share a file name once
// sanitised (results.SafeName: "A/B" and "A_B" would share a cell file).
func validateNames(s *Spec) error {
	if err := checkName(s.Name); err != nil {
		return fmt.Errorf("name = %q: %w", s.Name, err)
	}
	files := map[string]string{}
	for k, a := range s.Agents {
		if err := checkName(a.Name); err != nil {
			return fmt.Errorf("agents[%d]: name = %q: %w", k, a.Name, err)
		}
		safe := results.SafeName(a.Name)
		if other, ok := files[safe]; ok && other != a.Name {
			return fmt.Errorf("agents[%d]: name %q and agent %q both make the cell file name %q (characters other than "+
				"letters, digits, '-', '_' and '.' become '_'); give them names that differ in those", k, a.Name, other, safe)
		}
		files[safe] = a.Name
	}
	return nil
}

// checkName checks one experiment or agent name against nameRule.
func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty; %s", nameRule)
	case len(name) > MaxNameBytes:
		return fmt.Errorf("%d bytes long; %s", len(name), nameRule)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("a path, not a name; %s", nameRule)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("starts with a dot (. and .. are directories, .NAME a hidden file); %s", nameRule)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("holds a control character; %s", nameRule)
	}
	return nil
}
