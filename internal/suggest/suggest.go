// Package suggest finds the names a misspelt one was probably meant to be, for the "did you mean"
// of every error about an unknown name (a preset, an agent type, a task family, a config key).
//
// It imports nothing of temple.
package suggest

import (
	"slices"
	"strings"
)

// Closest lists the candidates nearest to name, nearest first (ties in the candidates' order):
// those within an edit distance of a third of name's length (at least 1, at most 3), and those
// that contain name or are contained in it when the shorter of the two has at least 3 letters.
// Case is ignored.
func Closest(name string, candidates []string) []string {
	n := strings.ToLower(name)
	limit := min(max(len([]rune(n))/3, 1), 3)
	type scored struct {
		name string
		dist int
	}
	var found []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(n, lc)
		contained := min(len(n), len(lc)) >= 3 && (strings.Contains(lc, n) || strings.Contains(n, lc))
		if d > limit && !contained {
			continue
		}
		found = append(found, scored{c, d})
	}
	slices.SortStableFunc(found, func(a, b scored) int { return a.dist - b.dist })
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.name
	}
	return out
}

// DidYouMean is "; did you mean X?" (or "X or Y?") for the closest candidates to name, at most
// three, or "" when none is close: an error message appends it as it is.
func DidYouMean(name string, candidates []string) string {
	near := Closest(name, candidates)
	if len(near) == 0 {
		return ""
	}
	near = near[:min(len(near), 3)]
	quoted := make([]string, len(near))
	for i, c := range near {
		quoted[i] = `"` + c + `"`
	}
	return "; did you mean " + strings.Join(quoted, " or ") + "?"
}

// distance is the Damerau–Levenshtein (optimal string alignment) distance between a and b, in
// runes: a swap of two neighbouring letters counts as one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
