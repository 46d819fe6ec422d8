package families_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/families"
)

// A config's tasks: block is read onto the family's defaults, validated, and draws each run's
// task sequence from that run's stream.
func Example() {
	var tasks families.Spec
	block := "family: finite-model\ncount: 4\nmodels: 3\n"
	if err := yaml.Unmarshal([]byte(block), &tasks); err != nil {
		fmt.Println(err)
		return
	}
	if err := tasks.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	seq, err := tasks.Params.Sequence(0, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, t := range seq {
		fmt.Printf("task %d: %s (%s)\n", k, t.Name(), t.Kind())
	}
	// Output:
	// task 0: maze 4x4 (maze)
	// task 1: maze 4x4 (maze)
	// task 2: maze 4x4 (maze)
	// task 3: maze 4x4 (maze)
}

// The registry holds every family with its one-line summary, its defaults and their keys; an
// unknown name is an error that lists the families and says which was meant.
func ExampleLookup() {
	f, err := families.Lookup("riverswim")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Name+":", f.Summary)
	fmt.Println(families.Keys(f.Defaults()))
	_, err = families.Lookup("river-swim")
	msg := err.Error()
	fmt.Println(msg[strings.LastIndex(msg, ";")+2:])
	// Output:
	// riverswim: Strehl & Littman's RiverSwim (Appendix F.5)
	// [count]
	// did you mean "riverswim"?
}
