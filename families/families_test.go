package families

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/internal/yamlkeys"
)

// needsFile are the families whose defaults name no file to read: they must say which key is
// missing rather than validate.
var needsFile = map[string]string{Custom: "needs file:", File: "needs file:", Mixed: "parts: none listed"}

// Every family's defaults validate (or name the key a config must give), and every family but
// those reading a file draws a sequence from them whose tasks build.
func TestEveryFamilyDefaults(t *testing.T) {
	for _, f := range All() {
		p := f.Defaults()
		err := p.Validate()
		if want, ok := needsFile[f.Name]; ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: defaults validate to %v, want an error with %q", f.Name, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: defaults do not validate: %v", f.Name, err)
			continue
		}
		seq, err := p.Sequence(0, rand.New(rand.NewPCG(1, 2)))
		if err != nil || len(seq) == 0 {
			t.Errorf("%s: Sequence = %d tasks, %v", f.Name, len(seq), err)
			continue
		}
		if _, simulated := seq[0].(env.Simulated); !simulated {
			if _, err := seq[0].Model(); err != nil {
				t.Errorf("%s: task 0 does not build: %v", f.Name, err)
			}
		}
		if f.Summary == "" || strings.Contains(f.Summary, "\n") {
			t.Errorf("%s: summary %q, want one line", f.Name, f.Summary)
		}
	}
}

// Defaults are fresh on every call: changing one spec's parameters leaves the next one's.
func TestDefaultsAreFresh(t *testing.T) {
	for _, f := range All() {
		a, b := f.Defaults(), f.Defaults()
		if reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() {
			t.Errorf("%s: Defaults returns one value twice", f.Name)
		}
	}
	a := defaultSimulator(MountainCar, 10, 10)().(*SimulatorParams)
	a.Bins[0] = 99
	if b := defaultSimulator(MountainCar, 10, 10)().(*SimulatorParams); b.Bins[0] != 10 {
		t.Errorf("changing one default's bins changed the next one's: %v", b.Bins)
	}
}

// Every config key of every family has a doc tag for the configuration reference.
func TestEveryKeyHasADocTag(t *testing.T) {
	for _, f := range All() {
		for _, field := range yamlkeys.Fields(reflect.TypeOf(f.Defaults()).Elem()) {
			if strings.TrimSpace(field.Tag.Get("doc")) == "" {
				t.Errorf("family %s: key %q has no doc tag", f.Name, field.Tag.Get("yaml"))
			}
		}
	}
}

// A spec written and read back writes the same, for every family (nil and empty lists aside,
// which the YAML does not tell apart).
func TestSpecRoundTrip(t *testing.T) {
	for _, name := range Names() {
		s, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := yaml.Marshal(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var back Spec
		if err := yaml.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: reading back\n%s: %v", name, b, err)
		}
		again, err := yaml.Marshal(back)
		if err != nil || string(again) != string(b) {
			t.Errorf("%s: written as\n%s\nread back and written as\n%s%v", name, b, again, err)
		}
	}
}

// A tasks: block is read as strictly as a config: an unknown family or key fails with its line
// and what was meant.
func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"family: online-maz", `line 1: family = "online-maz", want one of acrobot, `},
		{"family: online-maz", `did you mean "online-maze"?`},
		{"count: 3", "line 1: tasks needs family: NAME"},
		{"family: riverswim\ncont: 3", `line 2: family riverswim has no parameter "cont" (it has count); did you mean "count"?`},
		{"family: corridor\nlenght: 4", `line 2: family corridor has no parameter "lenght" (it has length, slips, count); did you mean "length"?`},
		{"[1, 2]", "line 1: tasks is a mapping"},
		{"family: mixed\nparts:\n  - family: taxi\n    slip: 0.1", `line 4: family taxi has no parameter "slip"`},
	} {
		var s Spec
		err := yaml.Unmarshal([]byte(c.yaml), &s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.yaml, err, c.want)
		}
	}
}

// Validate names the first parameter out of range, by its key.
func TestValidateNamesTheKey(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"family: online-maze\npool: 0", "pool = 0"},
		{"family: varying-actions\nsource_tasks: 11", "source_tasks = 11"},
		{"family: mountaincar\ntorques: 3", "torques = 3: only pendulum has torques"},
		{"family: cartpole\nphysics: {gravty: 3}", `physics key "gravty"`},
		{"family: file\nfile: published:online-maze-4x3", `did you mean "online-maze-4x4"?`},
		{"family: mixed\nparts: [{family: taxi, count: 0}]", "parts[0] (taxi): count = 0"},
		{"family: corridor\nslips: [1.5]", "slips[0] = 1.5"},
	} {
		var s Spec
		if err := yaml.Unmarshal([]byte(c.yaml), &s); err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: Validate = %v, want it to contain %q", c.yaml, err, c.want)
		}
	}
}

// The test family draws its sequence from the stream alone, and its tasks are read back from
// their JSON form (tasks.json) as mazes.
func TestCorridorSequence(t *testing.T) {
	var s Spec
	if err := yaml.Unmarshal([]byte("family: corridor\nlength: 6\nslips: [0, 0.1, 0.3]\ncount: 4"), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	draw := func() env.Sequence {
		seq, err := s.Params.Sequence(0, rand.New(rand.NewPCG(7, 0)))
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}
	seq := draw()
	if !reflect.DeepEqual(seq, draw()) {
		t.Error("two draws from equal streams differ")
	}
	b, err := json.Marshal(seq)
	if err != nil {
		t.Fatal(err)
	}
	var back env.Sequence
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, seq) {
		t.Errorf("the sequence read back from %s is %v, %v", b, back, err)
	}
	for k, task := range seq {
		m, err := task.Model()
		if err != nil || m.S != 6 || task.Kind() != env.KindMaze || !m.Terminal(5) {
			t.Errorf("task %d (%s): %d states, kind %s, %v", k, task.Name(), m.S, task.Kind(), err)
		}
	}
}

// Mixed draws as much at once as its largest part.
func TestDrawBytes(t *testing.T) {
	maze := defaultOnlineMaze().(*OnlineMazeParams)
	if got, want := DrawBytes(maze), int64(100*4*4*2); got != want {
		t.Errorf("online-maze DrawBytes = %d, want %d (100 mazes of 16 uint16 landforms)", got, want)
	}
	big, _ := New(OnlineMaze)
	big.Params.(*OnlineMazeParams).Width = 40
	small, _ := New(VaryingActions)
	mixed := &MixedParams{Parts: []Spec{small, big, {Family: Taxi, Params: defaultNamed(Taxi)()}}, Repeat: 2}
	if got, want := DrawBytes(mixed), DrawBytes(big.Params); got != want {
		t.Errorf("mixed DrawBytes = %d, want its largest part's %d", got, want)
	}
	if got := DrawBytes(defaultNamed(Taxi)()); got != 0 {
		t.Errorf("taxi DrawBytes = %d, want 0", got)
	}
}

// Every Go block of docs/guides/new-family.md is a piece of this package's test family, word for
// word, and its YAML is a tasks: block that reads and validates.
func TestGuideIsTheTestFamily(t *testing.T) {
	guide, err := os.ReadFile("../docs/guides/new-family.md")
	if err != nil {
		t.Fatal(err)
	}
	source, err := os.ReadFile("corridor_test.go")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(go|yaml)\n(.*?)```").FindAllStringSubmatch(string(guide), -1)
	if len(blocks) == 0 {
		t.Fatal("the guide has no go or yaml code block")
	}
	for _, b := range blocks {
		switch b[1] {
		case "go":
			if !strings.Contains(string(source), strings.TrimSpace(b[2])) {
				t.Errorf("the guide's block\n%s\nis not in corridor_test.go", b[2])
			}
		case "yaml":
			var config struct {
				Tasks Spec `yaml:"tasks"`
			}
			if err := yaml.Unmarshal([]byte(b[2]), &config); err != nil {
				t.Errorf("the guide's block\n%s: %v", b[2], err)
			} else if err := config.Tasks.Validate(); err != nil {
				t.Errorf("the guide's block\n%s: %v", b[2], err)
			}
		}
	}
	if !slices.Contains(Names(), Corridor) {
		t.Error("the test family is not registered")
	}
}
