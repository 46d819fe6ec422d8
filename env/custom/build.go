package custom

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/temple-rl/temple/mdp"
)

// probTolerance is how far probabilities may sum away from 1, as in package mdp.
const probTolerance = 1e-9

// build validates a decoded document and makes its tasks. Errors name the task by index and
// name.
func build(doc *fileDoc) ([]Task, error) {
	switch doc.Format {
	case Format:
	case "":
		return nil, fmt.Errorf("key \"format\" is missing: want \"format\": %q", Format)
	default:
		return nil, fmt.Errorf("format = %q, want %q", doc.Format, Format)
	}
	if len(doc.Tasks) == 0 {
		return nil, errors.New("no tasks: key \"tasks\" is missing or empty")
	}
	var total totals
	tasks := make([]Task, len(doc.Tasks))
	for i := range doc.Tasks {
		t, err := buildTask(&doc.Tasks[i], &total)
		if err != nil {
			name := ""
			if doc.Tasks[i].Name != "" {
				name = fmt.Sprintf(" (%q)", doc.Tasks[i].Name)
			}
			return nil, fmt.Errorf("task %d%s: %w", i, name, err)
		}
		tasks[i] = t
		// The task's document is no longer needed; let it go before the next model is built.
		doc.Tasks[i] = taskDoc{}
	}
	return tasks, nil
}

// totals are the sizes of the tasks built so far, held against MaxPairs and MaxOutcomes.
type totals struct {
	pairs, outcomes int64
}

// names is the resolved states or actions of a task.
type names struct {
	what  string // "state" or "action"
	n     int
	names []string       // nil when numbered
	index map[string]int // name -> index, nil when numbered
}

// newNames checks the states or actions of a task (key is "states" or "actions"), before
// anything is allocated for a declared count.
func newNames(key string, sp space, limit int, limitName string) (*names, error) {
	ns := &names{what: strings.TrimSuffix(key, "s")}
	switch sp.kind {
	case absent:
		return nil, fmt.Errorf("key %q is missing: give a count or a list of names", key)
	case numeric:
		switch {
		case sp.count < 1:
			return nil, fmt.Errorf("%s = %d, want at least 1", key, sp.count)
		case sp.count > int64(limit):
			return nil, fmt.Errorf("%s = %d, over the limit of %d (%s)", key, sp.count, limit, limitName)
		}
		ns.n = int(sp.count)
		return ns, nil
	case listed:
		switch {
		case len(sp.names) == 0:
			return nil, fmt.Errorf("%s is an empty list, want at least one name", key)
		case len(sp.names) > limit:
			return nil, fmt.Errorf("%s lists %d names, over the limit of %d (%s)", key, len(sp.names), limit, limitName)
		}
		ns.n, ns.names = len(sp.names), sp.names
		ns.index = make(map[string]int, len(sp.names))
		for i, name := range sp.names {
			if err := checkName(name); err != nil {
				return nil, fmt.Errorf("%s[%d]: %w", key, i, err)
			}
			if j, dup := ns.index[name]; dup {
				return nil, fmt.Errorf("%s[%d] = %q is the name of %s[%d] too; names must be distinct", key, i, name, key, j)
			}
			ns.index[name] = i
		}
		return ns, nil
	}
	return nil, fmt.Errorf("%s = %s%s: want a count (a whole number from 1) or a list of names", key, sp.text, lineNote(sp.line))
}

// checkName accepts a task, state or action name: not empty, and printable, since it appears
// in error messages, reports and tables.
func checkName(name string) error {
	if name == "" {
		return errors.New("name is missing or empty")
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("name %q is not valid UTF-8", name)
	}
	if i := strings.IndexFunc(name, unicode.IsControl); i >= 0 {
		return fmt.Errorf("name %q has a control character at byte %d", name, i)
	}
	return nil
}

// resolve is the index of a state or action given by name or index.
func (ns *names) resolve(r ref) (int, error) {
	switch r.kind {
	case absent:
		return 0, fmt.Errorf("no %s given", ns.what)
	case named:
		if ns.index == nil {
			return 0, fmt.Errorf("%s %q: the %ss of this task are numbered (0 to %d), not named", ns.what, r.text, ns.what, ns.n-1)
		}
		i, ok := ns.index[r.text]
		if !ok {
			return 0, fmt.Errorf("%s %q does not exist%s", ns.what, r.text, lineNote(r.line))
		}
		return i, nil
	case numeric:
		if r.index >= int64(ns.n) {
			return 0, fmt.Errorf("%s %d does not exist: the task has %d %ss, numbered 0 to %d%s", ns.what, r.index, ns.n, ns.what, ns.n-1, lineNote(r.line))
		}
		return int(r.index), nil
	}
	return 0, fmt.Errorf("%s = %s%s: want a %s name or an index from 0", ns.what, r.text, lineNote(r.line), ns.what)
}

// label names state or action i in messages: by its name, else by its index.
func (ns *names) label(i int) string {
	if ns.names != nil {
		return fmt.Sprintf("%s %q", ns.what, ns.names[i])
	}
	return fmt.Sprintf("%s %d", ns.what, i)
}

// lineNote is " (line N)" for a YAML value, and nothing in JSON, which has no lines to report.
func lineNote(line int) string {
	if line > 0 {
		return fmt.Sprintf(" (line %d)", line)
	}
	return ""
}

// checkNumber accepts a probability (nonNegative) or a reward given as a finite number.
func checkNumber(key string, x number, nonNegative bool) (float64, error) {
	switch {
	case x.kind == absent:
		return 0, fmt.Errorf("key %q is missing", key)
	case x.kind == wrong:
		return 0, fmt.Errorf("%s = %s%s: want a number", key, x.text, lineNote(x.line))
	case math.IsNaN(x.v) || math.IsInf(x.v, 0):
		return 0, fmt.Errorf("%s = %v%s: want a finite number", key, x.v, lineNote(x.line))
	case nonNegative && x.v < 0:
		return 0, fmt.Errorf("%s = %v%s: a probability cannot be negative", key, x.v, lineNote(x.line))
	}
	return x.v, nil
}

// stateProb is one start probability, before the start distribution is laid out densely.
type stateProb struct {
	s int
	p float64
}

func buildTask(td *taskDoc, total *totals) (Task, error) {
	if err := checkName(td.Name); err != nil {
		return Task{}, err
	}
	states, err := newNames("states", td.States, MaxStates, "MaxStates")
	if err != nil {
		return Task{}, err
	}
	actions, err := newNames("actions", td.Actions, MaxActions, "MaxActions")
	if err != nil {
		return Task{}, err
	}
	S, A := states.n, actions.n
	if total.pairs += int64(S) * int64(A); total.pairs > MaxPairs {
		return Task{}, fmt.Errorf("%d states × %d actions bring the file to %d state-action pairs, over the limit of %d (MaxPairs)",
			S, A, total.pairs, MaxPairs)
	}
	terminal := make(map[int]bool, len(td.Terminal))
	for k, r := range td.Terminal {
		s, err := states.resolve(r)
		if err != nil {
			return Task{}, fmt.Errorf("terminal[%d]: %w", k, err)
		}
		if terminal[s] {
			return Task{}, fmt.Errorf("terminal[%d]: %s is listed twice", k, states.label(s))
		}
		terminal[s] = true
	}
	start, err := startProbs(td.Start, states, terminal)
	if err != nil {
		return Task{}, err
	}
	if err := checkPairs(td.Transitions, states, actions, terminal); err != nil {
		return Task{}, err
	}

	// Every pair is listed exactly once, so the file holds as much as the model: from here on,
	// memory proportional to S·A (itself within MaxPairs) is in proportion to the file.
	rows := make([][]mdp.Transition, S*A)
	seen := make(map[int]int) // next state -> outcome index, within one row
	for j := range td.Transitions {
		tr := &td.Transitions[j]
		s, _ := states.resolve(tr.State) // both checked by checkPairs
		a, _ := actions.resolve(tr.Action)
		if total.outcomes += int64(len(tr.Outcomes)); total.outcomes > MaxOutcomes {
			return Task{}, fmt.Errorf("transitions[%d]: the file lists more than %d outcomes (MaxOutcomes)", j, MaxOutcomes)
		}
		row, err := buildRow(tr.Outcomes, states, seen)
		if err != nil {
			return Task{}, fmt.Errorf("transitions[%d] (%s, %s)%s: %w", j, states.label(s), actions.label(a), lineNote(tr.State.line), err)
		}
		rows[s*A+a] = row
	}
	mu := make([]float64, S)
	for _, e := range start {
		mu[e.s] = e.p
	}
	var isTerminal []bool
	if len(terminal) > 0 {
		isTerminal = make([]bool, S)
		for s := range terminal {
			isTerminal[s] = true
		}
	}
	m, err := mdp.NewEpisodic(S, A, rows, mu, isTerminal)
	if err != nil {
		return Task{}, err
	}
	return Task{Name: td.Name, Model: m, StateNames: states.names, ActionNames: actions.names}, nil
}

// startProbs checks the start distribution: one state, or probabilities by state summing to 1,
// never on a terminal state. Keys of a distribution are state names or, when the states are
// numbered, decimal indices.
func startProbs(st startDoc, states *names, terminal map[int]bool) ([]stateProb, error) {
	var out []stateProb
	switch st.kind {
	case absent:
		return nil, errors.New("key \"start\" is missing: give a start state, or probabilities by state")
	case wrong:
		return nil, fmt.Errorf("start = %s%s: want a state (name or index) or an object of probabilities by state", st.text, lineNote(st.line))
	case named, numeric:
		s, err := states.resolve(st.one)
		if err != nil {
			return nil, fmt.Errorf("start: %w", err)
		}
		out = []stateProb{{s, 1}}
	case listed:
		at := make(map[int]string, len(st.entries))
		sum := 0.0
		for _, e := range st.entries {
			s, err := startKey(e.key, states)
			if err != nil {
				return nil, fmt.Errorf("start: %w", err)
			}
			if k, dup := at[s]; dup {
				return nil, fmt.Errorf("start: keys %q and %q are the same %s", k, e.key, states.label(s))
			}
			at[s] = e.key
			p, err := checkNumber(fmt.Sprintf("start[%q]", e.key), e.p, true)
			if err != nil {
				return nil, err
			}
			sum += p
			out = append(out, stateProb{s, p})
		}
		if math.Abs(sum-1) > probTolerance {
			return nil, fmt.Errorf("start probabilities sum to %v, want 1 (within %g)%s", sum, probTolerance, lineNote(st.line))
		}
	}
	for _, e := range out {
		if terminal[e.s] && e.p > 0 {
			return nil, fmt.Errorf("start: %s is terminal, so an episode cannot start there (probability %v)", states.label(e.s), e.p)
		}
	}
	return out, nil
}

// startKey is the state of a key of the start distribution.
func startKey(key string, states *names) (int, error) {
	if states.index != nil {
		if s, ok := states.index[key]; ok {
			return s, nil
		}
		return 0, fmt.Errorf("state %q does not exist", key)
	}
	// Only the canonical decimal form, so that "1" and "01" cannot both name state 1.
	s, err := strconv.Atoi(key)
	if err != nil || s < 0 || strconv.Itoa(s) != key {
		return 0, fmt.Errorf("key %q: the states of this task are numbered, so a key is an index such as \"0\"", key)
	}
	if s >= states.n {
		return 0, fmt.Errorf("state %d does not exist: the task has %d states, numbered 0 to %d", s, states.n, states.n-1)
	}
	return s, nil
}

// checkPairs checks that the transitions list every pair of a non-terminal state exactly once.
// It sorts the listed pairs rather than marking a table of all S·A pairs, so that a file that
// declares many states but lists few transitions is rejected without allocating for the
// declared size.
func checkPairs(trs []transitionDoc, states, actions *names, terminal map[int]bool) error {
	type listedPair struct {
		pair  int64 // s*A + a
		entry int
	}
	A := int64(actions.n)
	pairs := make([]listedPair, len(trs))
	for j, tr := range trs {
		s, err := states.resolve(tr.State)
		if err != nil {
			return fmt.Errorf("transitions[%d]: %w", j, err)
		}
		a, err := actions.resolve(tr.Action)
		if err != nil {
			return fmt.Errorf("transitions[%d] (%s): %w", j, states.label(s), err)
		}
		if terminal[s] {
			return fmt.Errorf("transitions[%d]%s: %s is terminal, so it has no transitions (an episode ends there); remove this entry",
				j, lineNote(tr.State.line), states.label(s))
		}
		pairs[j] = listedPair{int64(s)*A + int64(a), j}
	}
	slices.SortFunc(pairs, func(x, y listedPair) int {
		return cmp.Or(cmp.Compare(x.pair, y.pair), cmp.Compare(x.entry, y.entry))
	})
	for k := 1; k < len(pairs); k++ {
		if x, y := pairs[k-1], pairs[k]; x.pair == y.pair {
			return fmt.Errorf("transitions[%d] and transitions[%d] both give %s, %s; list each pair once",
				x.entry, y.entry, states.label(int(x.pair/A)), actions.label(int(x.pair%A)))
		}
	}
	if int64(len(pairs)) == int64(states.n-len(terminal))*A {
		return nil
	}
	// Some pair is missing: find the first, in state-then-action order.
	k := 0
	for s := range states.n {
		if terminal[s] {
			continue
		}
		for a := range actions.n {
			if k < len(pairs) && pairs[k].pair == int64(s)*A+int64(a) {
				k++
				continue
			}
			return fmt.Errorf("no transition for %s, %s: list every pair of a non-terminal state (%d listed, want %d)",
				states.label(s), actions.label(a), len(pairs), int64(states.n-len(terminal))*A)
		}
	}
	return nil
}

// buildRow checks the outcomes of one pair. seen is scratch space, cleared here.
func buildRow(outcomes []outcomeDoc, states *names, seen map[int]int) ([]mdp.Transition, error) {
	if len(outcomes) == 0 {
		return nil, errors.New("no outcomes: list at least one, with probabilities summing to 1")
	}
	clear(seen)
	row := make([]mdp.Transition, 0, len(outcomes))
	sum := 0.0
	for k, o := range outcomes {
		next, err := states.resolve(o.Next)
		if err != nil {
			return nil, fmt.Errorf("outcomes[%d]: next: %w", k, err)
		}
		if first, dup := seen[next]; dup {
			return nil, fmt.Errorf("outcomes[%d] and outcomes[%d] both lead to %s; give each next state once, with the probabilities added",
				first, k, states.label(next))
		}
		seen[next] = k
		p, err := checkNumber("p", o.P, true)
		if err != nil {
			return nil, fmt.Errorf("outcomes[%d] (next %s): %w", k, states.label(next), err)
		}
		r, err := checkNumber("r", o.R, false)
		if err != nil {
			return nil, fmt.Errorf("outcomes[%d] (next %s): %w", k, states.label(next), err)
		}
		sum += p
		row = append(row, mdp.Transition{Next: next, Prob: p, Reward: r})
	}
	if math.Abs(sum-1) > probTolerance {
		return nil, fmt.Errorf("probabilities sum to %v, want 1 (within %g)", sum, probTolerance)
	}
	return row, nil
}
