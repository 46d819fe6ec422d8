package suggest

import (
	"fmt"
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"rmax", "rmax", 0}, {"rmax", "rmx", 1},
		{"otemple", "o-temple", 1}, {"mbeieb", "mbieeb", 1}, {"kitten", "sitting", 3},
		{"ms", "m_s", 1}, {"τ", "t", 1},
	} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	presets := []string{"online-maze", "finite-model", "varying-size", "taxi", "deep", "base-learners"}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"online-maez", []string{"online-maze"}},
		{"Online-Maze", []string{"online-maze"}},
		{"taxy", []string{"taxi"}},
		{"maze", []string{"online-maze"}},       // contained
		{"learners", []string{"base-learners"}}, // contained
		{"xyzzy", nil},
		{"de", nil}, // two letters: too few to guess from by containment, and 2 edits from "deep"
	} {
		got := Closest(c.name, presets)
		if !slices.Equal(got, c.want) {
			t.Errorf("Closest(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	keys := []string{"m", "m_s", "tau", "base", "retry", "early_match"}
	if got, want := DidYouMean("taux", keys), `; did you mean "tau"?`; got != want {
		t.Errorf("DidYouMean(taux) = %q, want %q", got, want)
	}
	if got, want := DidYouMean("ms", keys), `; did you mean "m" or "m_s"?`; got != want {
		t.Errorf("DidYouMean(ms) = %q, want %q", got, want)
	}
	if got := DidYouMean("gamma", keys); got != "" {
		t.Errorf("DidYouMean(gamma) = %q, want nothing (\"m\" is too short to count as contained)", got)
	}
}

func ExampleDidYouMean() {
	fmt.Println("unknown preset \"onlin-maze\"" + DidYouMean("onlin-maze", []string{"online-maze", "taxi"}))
	// Output: unknown preset "onlin-maze"; did you mean "online-maze"?
}
