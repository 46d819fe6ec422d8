package published_test

import (
	"fmt"

	"github.com/temple-rl/temple/env/published"
)

func Example() {
	set, err := published.Open("published:online-maze-4x4")
	if err != nil {
		panic(err)
	}
	fmt.Println(published.Names())
	fmt.Printf("%d runs of %d tasks\n", len(set.Runs), len(set.Runs[0]))
	// Output:
	// [finite-model-grid-4x4 online-maze-4x4 varying-size-20 varying-size-80]
	// 30 runs of 100 tasks
}
