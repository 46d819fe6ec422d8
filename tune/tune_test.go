package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
)

// small is a 3-agent config (a template learner over its base among them) that a search of a
// few settings runs in seconds.
const small = `name: small
runs: 2
episodes: 150
tasks:
  family: online-maze
  count: 4
agents:
  - type: o-temple
  - type: rmax
  - type: q-learning
`

func parse(t *testing.T, text string) experiment.Spec {
	t.Helper()
	s, err := experiment.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScheduleHalvesSettingsAndDoublesRuns(t *testing.T) {
	cases := []struct {
		settings, runs int
		want           []stage
		trialRuns      int
	}{
		{16, 2, []stage{{16, 2}, {8, 4}, {4, 8}, {2, 16}}, 16*2 + 8*2 + 4*4 + 2*8},
		{5, 1, []stage{{5, 1}, {3, 2}, {2, 4}}, 5 + 3 + 2*2},
		{2, 3, []stage{{2, 3}}, 6},
		{1, 3, []stage{{1, 3}}, 3},
	}
	for _, c := range cases {
		got := schedule(c.settings, c.runs)
		if !slices.Equal(got, c.want) || trialRuns(got) != c.trialRuns {
			t.Errorf("schedule(%d, %d) = %v (%d trial runs), want %v (%d)", c.settings, c.runs, got, trialRuns(got), c.want, c.trialRuns)
		}
	}
}

// The first b points of a coordinate in base b fall one in each interval [d/b, (d+1)/b): the
// scrambling permutes digits, so the stratification of Halton points holds.
func TestScrambledHaltonStratifies(t *testing.T) {
	h := newHalton(4, rand.New(rand.NewPCG(7, 0)))
	for j, b := range h.bases {
		seen := make([]bool, b)
		for i := 1; i <= b; i++ {
			u := h.point(i)[j]
			if u < 0 || u >= 1 {
				t.Fatalf("point %d, coordinate %d = %v, outside [0, 1)", i, j, u)
			}
			d := int(u * float64(b))
			if seen[d] {
				t.Errorf("base %d: two of the first %d points in [%d/%d, %d/%d)", b, b, d, b, d+1, b)
			}
			seen[d] = true
		}
	}
	other := newHalton(4, rand.New(rand.NewPCG(8, 0)))
	if slices.Equal(h.point(3), other.point(3)) {
		t.Error("two scrambling seeds give the same point")
	}
}

// Under Shared, each parameter's values at settings 1 to n fall one in each n-th of [0, 1), and
// depend on the seed and the parameter's name alone.
func TestSharedDrawsStratifyEachParameter(t *testing.T) {
	for _, n := range []int{1, 7, 15} {
		for _, key := range []string{"alpha", "reward_sd"} {
			u := sharedDraws(3, key, n)
			seen := make([]bool, n)
			for i, x := range u {
				d := int(x * float64(n))
				if x < 0 || x >= 1 || seen[d] {
					t.Fatalf("%s, n %d: setting %d at %v: outside [0, 1) or a second point in stratum %d", key, n, i+1, x, d)
				}
				seen[d] = true
			}
			if !slices.Equal(u, sharedDraws(3, key, n)) {
				t.Errorf("%s, n %d: two calls differ", key, n)
			}
		}
	}
	if slices.Equal(sharedDraws(3, "alpha", 7), sharedDraws(3, "epsilon", 7)) || slices.Equal(sharedDraws(3, "alpha", 7), sharedDraws(4, "alpha", 7)) {
		t.Error("two parameters, or two seeds, give the same draws")
	}
}

// Under Shared, PSRL, template-prior, latent-psrl and hybrid-prior try the same values of every
// parameter two of them have (PSRL's; the template library's; the concentration) at every
// setting; each agent its own design (PerAgent) does not.
func TestSharedDrawsGiveAgentsTheSameValues(t *testing.T) {
	s := parse(t, `tasks: {family: online-maze, count: 2}
agents:
  - {type: psrl}
  - {type: template-prior}
  - {type: latent-psrl}
  - {type: hybrid-prior}
`)
	valuesOf := func(sr *search, setting int) map[string]any {
		out := map[string]any{}
		for _, p := range sr.params[setting] {
			out[p.Key] = p.Value
		}
		return out
	}
	for _, draws := range []Draws{Shared, PerAgent} {
		searches, _, err := prepare(s, Options{Seed: 11, Settings: 8, Runs: 1, Draws: draws})
		if err != nil {
			t.Fatal(err)
		}
		same, compared := 0, 0
		for i := 1; i < 8; i++ {
			for j, a := range searches {
				for _, b := range searches[j+1:] {
					other := valuesOf(b, i)
					for key, v := range valuesOf(a, i) {
						if w, shared := other[key]; shared {
							compared++
							if v == w {
								same++
							}
						}
					}
				}
			}
		}
		if draws == Shared && same != compared {
			t.Errorf("shared draws: %d of %d shared parameters' values are the same across agents, want all", same, compared)
		}
		if draws == PerAgent && same == compared {
			t.Errorf("per-agent draws: all %d shared parameters' values are the same across agents, want designs of their own", compared)
		}
	}
}

// A search's claim names its draws only when shared, so that a search from before the option
// resumes; a directory claimed per agent refuses a shared search.
func TestClaimNamesSharedDraws(t *testing.T) {
	s := parse(t, small)
	for draws, want := range map[Draws]string{"": "objective: regret}\n", PerAgent: "objective: regret}\n", Shared: "objective: regret, draws: shared}\n"} {
		b, err := claimYAML(s, Options{Seed: 1, Settings: 4, Runs: 1, Draws: draws}, Regret)
		if err != nil || !strings.HasSuffix(string(b), want) {
			t.Errorf("draws %q: claim ends %q (%v), want %q", draws, b[max(len(b)-60, 0):], err, want)
		}
	}
}

func TestValueStaysInItsRange(t *testing.T) {
	s := parse(t, small)
	sp, err := spaceOf(s.Agents[0], map[string]any{"tau": []any{0.05, 0.5}, "m": []any{2, 100}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		u := float64(i) / 200
		for _, d := range sp.dims {
			switch v := value(d, u).(type) {
			case int64:
				if !d.Int || float64(v) < d.Low || float64(v) > d.High {
					t.Errorf("%s at u = %v: %v outside [%v, %v]", d.Key, u, v, d.Low, d.High)
				}
			case float64:
				if d.Int || v < d.Low || v > d.High {
					t.Errorf("%s at u = %v: %v outside [%v, %v]", d.Key, u, v, d.Low, d.High)
				}
			}
		}
	}
	// m_s is clamped to the setting's m.
	set, ps, err := sp.setting(s.Agents[0], []any{int64(5), 0.1, int64(40)})
	if err != nil {
		t.Fatal(err)
	}
	if ms, _ := intParam(set, "m_s"); ms != 5 || describe(ps) != "m=5 tau=0.1 m_s=5" {
		t.Errorf("m 5, m_s 40: got m_s %d (%s), want m_s clamped to 5", ms, describe(ps))
	}
}

// Every bad input is a clear error, and nothing is written.
func TestBadInputIsRefusedWithNothingWritten(t *testing.T) {
	good := Options{Seed: 1, Settings: 4, Runs: 1}
	cases := []struct {
		name, config string
		o            Options
		want         string
	}{
		{"budget 0", small, Options{Seed: 1, Runs: 1}, "budget = 0 settings per agent"},
		{"runs 0", small, Options{Seed: 1, Settings: 4}, "runs = 0"},
		{"objective", small, Options{Seed: 1, Settings: 4, Runs: 1, Objective: "speed"}, `objective = "speed"`},
		{"regret without oracle", small + "oracle: {enabled: false}\n", Options{Seed: 1, Settings: 4, Runs: 1, Objective: Regret}, "objective regret needs the oracle"},
		{"empty range", small + "search:\n  RMax:\n    m: []\n", good, "search: RMax: m: the range is empty"},
		{"reversed range", small + "search:\n  RMax:\n    m: [50, 5]\n", good, "search: RMax: m: range [50, 5] is empty"},
		{"log from 0", small + "search:\n  Q-learning:\n    alpha: [0, 1]\n", good, "log scale, so low must be above 0"},
		{"three numbers", small + "search:\n  RMax:\n    m: [1, 2, 3]\n", good, "a range is two numbers"},
		{"one choice", small + "search:\n  RMax:\n    action_rule: [optimistic]\n", good, "one choice (optimistic)"},
		{"base", small + "search:\n  O-TempLe:\n    base: [rmax, psrl]\n", good, "the base is not searched"},
		{"everything fixed", small + "search:\n  RMax:\n    m: 10\n", good, "nothing left to search"},
		{"draws", small, Options{Seed: 1, Settings: 4, Runs: 1, Draws: "lucky"}, `draws = "lucky", want per-agent`},
		{"merge from nowhere", small, Options{Seed: 1, Settings: 4, Runs: 1, Merge: true}, "a merge gathers"},
		{"out of bounds", small + "search:\n  Q-learning:\n    alpha: [0.5, 3]\n", good, "range [0.5, 3] goes out of bounds: setting alpha=3: q-learning: alpha = 3"},
		{"fixed out of bounds", small + "search:\n  Q-learning:\n    alpha: 3\n", good,
			"search: Q-learning: the config's own setting with the search: block's fixed keys: q-learning: alpha = 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			_, _, err := Tune(context.Background(), parse(t, c.config), dir, c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
			t.Log(err)
			if _, statErr := os.Stat(dir); !os.IsNotExist(statErr) {
				t.Errorf("%s was written", dir)
			}
		})
	}
}

// Unknown agents and parameters in a search: block fail when the config is read, naming them.
func TestUnknownSearchKeysFailWhenRead(t *testing.T) {
	for text, want := range map[string]string{
		small + "search:\n  RMax:\n    tua: [0.1, 0.2]\n":     `agent RMax (type rmax) has no parameter "tua"`,
		small + "search:\n  O-TempLe:\n    tua: [0.1, 0.2]\n": `has no parameter "tua"`,
		small + "search:\n  Rmax:\n    m: [1, 2]\n":           `search: "Rmax" is not the name of an agent`,
	} {
		if _, err := experiment.Parse([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want an error with %q", err, want)
		}
	}
}

// A config's own agent out of range is refused before anything is tuned, naming the file, the
// agent's line and the key.
func TestTuneNamesTheConfigsBadAgent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(small+"  - {type: psrl, reward_noise: -1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Tune(context.Background(), s, filepath.Join(t.TempDir(), "out"), Options{Seed: 1, Settings: 4, Runs: 1})
	if want := "config " + path + ": line 11: agents[3] (PSRL): psrl: reward_noise = -1"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error with %q", err, want)
	}
}

func TestLoadWantsAgents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("runs: 2\n"), 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "no agents: list") {
		t.Errorf("a config without agents: %v", err)
	}
	os.WriteFile(path, []byte("runs: 2\nagents: []\n"), 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "agents: none listed") {
		t.Errorf("a config with an empty agents list: %v", err)
	}
}

// files reads the tuned config and the record of a tuning directory.
func files(t *testing.T, dir string) (tuned, record []byte) {
	t.Helper()
	tuned, err := os.ReadFile(filepath.Join(dir, results.TunedFile))
	if err != nil {
		t.Fatal(err)
	}
	record, err = os.ReadFile(filepath.Join(dir, results.SearchFile))
	if err != nil {
		t.Fatal(err)
	}
	return tuned, record
}

// The same search at 1 and 2 workers, and after an interruption, writes the same bytes; every
// agent's record shows the same budget; the tuned config reads back as a config for temple run
// whose design seeds are refused.
func TestTuneIsReproducibleAndResumes(t *testing.T) {
	s := parse(t, small)
	o := Options{Seed: 3, Settings: 5, Runs: 1}
	one, two, resumed := t.TempDir(), t.TempDir(), t.TempDir()
	o.Jobs = 1
	tuned, rec, err := Tune(context.Background(), s, one, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Jobs = 2
	if _, _, err := Tune(context.Background(), s, two, o); err != nil {
		t.Fatal(err)
	}
	t1, r1 := files(t, one)
	t2, r2 := files(t, two)
	if !bytes.Equal(t1, t2) || !bytes.Equal(r1, r2) {
		t.Error("--jobs 1 and --jobs 2 wrote different tuned configs or records")
	}

	// Interrupted after a few tasks, then run again.
	ctx, cancel := context.WithCancel(context.Background())
	o.Progress = &cancelAfter{n: 40, cancel: cancel}
	if _, _, err := Tune(ctx, s, resumed, o); err == nil {
		t.Fatal("the interrupted search did not fail")
	}
	if _, err := os.Stat(filepath.Join(resumed, results.TunedFile)); !os.IsNotExist(err) {
		t.Fatal("an interrupted search wrote a tuned config")
	}
	o.Progress = nil
	if _, _, err := Tune(context.Background(), s, resumed, o); err != nil {
		t.Fatal(err)
	}
	t3, r3 := files(t, resumed)
	if !bytes.Equal(t1, t3) || !bytes.Equal(r1, r3) {
		t.Error("the search interrupted and resumed wrote a different tuned config or record")
	}

	for _, a := range rec.Agents {
		if len(a.Trials) != 5 || a.TrialRuns != rec.Budget.TrialRuns || a.TrialRuns != 5+3+2*2 {
			t.Errorf("%s: %d settings, %d trial runs; want every agent 5 settings, %d trial runs", a.Name, len(a.Trials), a.TrialRuns, 5+3+2*2)
		}
		if a.Trials[a.Chosen].Runs != 4 {
			t.Errorf("%s: the chosen setting has %d runs, want the last stage's 4", a.Name, a.Trials[a.Chosen].Runs)
		}
	}
	back, err := experiment.Parse(t1)
	if err != nil {
		t.Fatalf("tuned.yaml does not read back: %v", err)
	}
	if back.Seed != JudgingSeed(3) || back.Tuning == nil || len(back.Tuning.Agents) != 3 || back.Agents[0].Name != "O-TempLe" {
		t.Errorf("tuned.yaml read back: seed %d, tuning %+v", back.Seed, back.Tuning)
	}
	if tuned.Seed != back.Seed {
		t.Errorf("returned seed %d, written %d", tuned.Seed, back.Seed)
	}
	for _, seed := range []uint64{3, DesignSeed(3)} {
		back.Seed = seed
		if err := back.Validate(); err == nil || !strings.Contains(err.Error(), "seed "+strconvU(seed)+" was used to tune") {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
	back.Tuning.AllowDesignSeeds = true
	if err := back.Validate(); err != nil {
		t.Errorf("with allow_design_seeds: %v", err)
	}
	if _, _, err := Tune(context.Background(), tuned, t.TempDir(), o); err == nil || !strings.Contains(err.Error(), "already tuned") {
		t.Errorf("tuning a tuned config: %v", err)
	}
}

// cancelAfter cancels the search after n finished tasks.
type cancelAfter struct {
	n      int64
	done   atomic.Int64
	cancel func()
}

func (c *cancelAfter) Start(int)                        {}
func (c *cancelAfter) Stage(string, int, int, int, int) {}
func (c *cancelAfter) TaskDone(int, string, int) {
	if c.done.Add(1) == c.n {
		c.cancel()
	}
}

func strconvU(x uint64) string { return strconv.FormatUint(x, 10) }

// A key a setting makes inert is not searched unless a searched choice makes it live: PSRL,
// template-prior and latent-psrl at their defaults search reward_posterior [beta, normal,
// normal-shared-noise] and with it reward_sd and reward_noise; a block fixing reward_posterior beta
// leaves them out, and a range for reward_sd beside it is refused with what makes it inert; a
// block fixing either Normal searches them.
func TestSearchLeavesInertKeysOut(t *testing.T) {
	s := parse(t, `tasks: {family: online-maze, count: 2}
agents:
  - {type: psrl}
  - {type: template-prior}
  - {type: latent-psrl}
`)
	keys := func(sp space) []string {
		var out []string
		for _, d := range sp.dims {
			out = append(out, d.Key)
		}
		return out
	}
	for _, a := range s.Agents {
		sp, err := spaceOf(a, nil)
		if k := keys(sp); err != nil || !slices.Contains(k, "reward_posterior") || !slices.Contains(k, "reward_sd") || !slices.Contains(k, "reward_noise") {
			t.Errorf("%s at its defaults searches %v (%v), want reward_posterior, reward_sd and reward_noise", a.Name, k, err)
		}
		sp, err = spaceOf(a, map[string]any{"reward_posterior": "beta"})
		if k := keys(sp); err != nil || slices.Contains(k, "reward_sd") || slices.Contains(k, "reward_noise") {
			t.Errorf("%s with reward_posterior beta fixed searches %v (%v)", a.Name, k, err)
		}
		for _, normal := range []string{"normal", "normal-shared-noise"} {
			sp, err = spaceOf(a, map[string]any{"reward_posterior": normal})
			if k := keys(sp); err != nil || !slices.Contains(k, "reward_sd") || !slices.Contains(k, "reward_noise") {
				t.Errorf("%s with reward_posterior %s fixed searches %v (%v), want reward_sd and reward_noise", a.Name, normal, k, err)
			}
		}
		_, err = spaceOf(a, map[string]any{"reward_sd": []any{0.1, 1.0}, "reward_posterior": "beta"})
		if want := "search: " + a.Name + ": reward_sd: the agent's settings leave reward_sd unused (reward_posterior: beta)"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: a range for reward_sd under Beta rewards: error %v, want %q", a.Name, err, want)
		}
		sp, err = spaceOf(a, map[string]any{"reward_sd": []any{0.1, 1.0}})
		if err != nil || !slices.Contains(keys(sp), "reward_sd") || !slices.Contains(keys(sp), "reward_posterior") {
			t.Errorf("%s: reward_sd searched with the registry's reward_posterior: %v, %v", a.Name, keys(sp), err)
		}
	}
}

// results.TuningLayout is what a search writes: every file and directory at the top of a finished
// tuning's directory is in the table, each entry of the table is there (the lock but while the
// search runs), and the record lists each file the table says is checksummed, its trials' as parts.
func TestTuningLayoutIsWhatTuneWrites(t *testing.T) {
	s := parse(t, "name: tiny\nruns: 1\nepisodes: 20\ntasks: {family: online-maze, count: 2}\nagents: [{type: rmax}, {type: q-learning}]\n")
	dir := t.TempDir()
	if _, _, err := Tune(context.Background(), s, dir, Options{Seed: 1, Settings: 2, Runs: 1, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	var want []string
	for _, f := range results.TuningLayout {
		if f.Name != results.LockFile {
			want = append(want, f.Name)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the tuning directory holds %q, results.TuningLayout lists %q", got, want)
	}
	var record struct {
		Files map[string]string `json:"files"`
		Parts []string          `json:"parts"`
	}
	b, err := os.ReadFile(filepath.Join(dir, results.ChecksumsFile))
	if err != nil || json.Unmarshal(b, &record) != nil {
		t.Fatalf("the record: %v", err)
	}
	for _, f := range results.TuningLayout {
		if _, listed := record.Files[f.Name]; f.Checksummed && !f.Dir && !listed {
			t.Errorf("%s is checksummed by the table but not listed in the record", f.Name)
		}
	}
	if want := []string{results.TrialsDir + "/Q-learning", results.TrialsDir + "/RMax"}; !slices.Equal(record.Parts, want) {
		t.Errorf("the record's parts are %q, want the trials' directories %q", record.Parts, want)
	}
}

// A run without stages (a benchmark's judged run) is named by Doing, not as a search without an
// agent; a search names its agent and stage.
func TestLinesOfARunAndOfASearch(t *testing.T) {
	var b strings.Builder
	run := &Lines{W: &b, Doing: "benchmark: terrain, the judged run"}
	run.Start(10)
	run.TaskDone(0, "PSRL", 0)
	search := &Lines{W: &b}
	search.Start(10)
	search.Stage("PSRL", 0, 3, 8, 2)
	got := b.String()
	if want := "benchmark: terrain, the judged run: 10% done, about "; !strings.HasPrefix(got, want) {
		t.Errorf("a run's line %q, want it to begin %q", got, want)
	}
	if want := "\ntune: PSRL, stage 1/3 (8 settings x 2 runs): 0% of the search, time left unknown yet\n"; !strings.HasSuffix(got, want) {
		t.Errorf("a search's line in %q, want %q", got, want)
	}
}
