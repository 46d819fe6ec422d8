package experiment

import (
	"strings"
	"testing"
)

func TestSweepErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"sweep:\n  - parameter: alpha_typo\n    values: [1]\n", `sweep[0]: no agent has parameter "alpha_typo"`},
		{"sweep:\n  - parameter: tasks.sd\n    values: [1]\n", `sweep[0]: family online-maze has no parameter "sd"`},
		{"sweep:\n  - parameter: tau\n    values: []\n", "sweep[0]: parameter tau has no values"},
		{"sweep:\n  - parameter: tau\n    values: [0.1]\n  - parameter: tau\n    values: [0.2]\n", `sweep[1]: parameter "tau" is swept twice`},
		{"sweep:\n  - parameter: tau\n    valus: [0.1]\n", `line 3: sweep[0] has no key "valus" (it has parameter, values); did you mean "values"?`},
		// Issue 51, case 14: values whose directories' names collide are refused before any run
		// (the second point was refused as another experiment's, and --force failed the same way).
		{"tasks:\n  family: custom\n  file: a.json\nsweep:\n  - parameter: tasks.file\n    values: [\"inv a.json\", \"inv_a.json\"]\n",
			`sweep[0]: values "inv a.json" and "inv_a.json" of tasks.file make the same directory name tasks.file-inv_a.json`},
		{"sweep:\n  - parameter: tau\n    values: [0.1, 0.2, 0.1]\n", `sweep[0]: value "0.1" of tau is given twice`},
	} {
		if _, err := Parse([]byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
	// A value of the wrong type fails when the point is built, before any run, naming the parameter
	// and value.
	s, err := Parse([]byte("runs: 1\nsweep:\n  - parameter: m_s\n    values: [ten]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(s); err == nil || !strings.Contains(err.Error(), "sweep: m_s = ten") {
		t.Errorf("error %v", err)
	}
}
