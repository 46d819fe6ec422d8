package tune

import "math/rand/v2"

// halton is a scrambled Halton sequence: point i's coordinate j is the radical inverse of i in
// the j-th prime base, each digit passed through a random permutation of the digits drawn once per
// (coordinate, digit position) from a seeded stream (Braaten & Weller's digit scrambling, with
// independent permutations per position). Scrambling breaks the correlations of plain Halton
// points between the higher bases while keeping their low discrepancy; the seed makes the design
// reproducible.
type halton struct {
	bases []int
	perms [][][]int // perms[j][k]: the permutation of digit position k of coordinate j
}

// haltonDigits is the digits kept per coordinate: base^digits exceeds 2^32 for every base.
const haltonDigits = 32

// newHalton is the scrambled Halton sequence of dim coordinates drawn from rng.
func newHalton(dim int, rng *rand.Rand) *halton {
	h := &halton{bases: primes(dim)}
	for _, b := range h.bases {
		var ps [][]int
		for range haltonDigits {
			ps = append(ps, rng.Perm(b))
		}
		h.perms = append(h.perms, ps)
	}
	return h
}

// point is the i-th point (i >= 1), in [0, 1)^dim.
func (h *halton) point(i int) []float64 {
	out := make([]float64, len(h.bases))
	for j, b := range h.bases {
		x, scale, n := 0.0, 1/float64(b), i
		for k := 0; k < haltonDigits && scale > 1e-16; k++ {
			x += float64(h.perms[j][k][n%b]) * scale
			n /= b
			scale /= float64(b)
		}
		out[j] = min(x, 1-1e-12)
	}
	return out
}

// primes are the first n primes.
func primes(n int) []int {
	var out []int
	for c := 2; len(out) < n; c++ {
		prime := true
		for _, p := range out {
			if c%p == 0 {
				prime = false
				break
			}
		}
		if prime {
			out = append(out, c)
		}
	}
	return out
}
