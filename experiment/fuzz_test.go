package experiment

import "testing"

// FuzzParse feeds arbitrary bytes to the config parser: it must return a valid spec or an error,
// never panic.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"runs: 2\ntasks:\n  family: finite-model\n  count: 5\nagents:\n  - type: o-temple\n    tau: 0.24\n",
		"tasks:\n  family: mixed\n  repeat: 2\n  parts:\n    - family: frozenlake\n      map: 8x8\n    - family: fourroom\n",
		"start: fixed\nstart_state: 3\ntasks:\n  family: taxi\n",
		"agents:\n  - type: abs-rl\n    abstraction: q-star\n",
		"output:\n  smoothing: 0.5\n",
		"agents:\n  - type: rmax\n    m: 2.5\n", // issue 51: a fraction for an integer, a second document, a merge key
		"runs: 1\n---\nruns: 2\n",
		"base: &b {m: 10}\nagents:\n  - type: rmax\n    <<: *b\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Parse accepted a spec that does not validate: %v", err)
		}
	})
}
