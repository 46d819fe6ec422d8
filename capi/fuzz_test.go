package main

import (
	"encoding/json"
	"testing"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/families"
)

// FuzzPythonParameters: whatever parameters Python's temple.Agent and temple.make pass (a JSON
// object of config keys, any type or family name), the library returns an agent, a task family
// or an error, never panics (issue 51: no input from the Python API crashes the process); and a
// parameter it accepts holds no fraction where the key is an integer (m: 1.5 was read as 1).
func FuzzPythonParameters(f *testing.F) {
	f.Add(uint8(0), `{"m": 1.5}`)
	f.Add(uint8(1), `{"count": 1.5, "width": 3}`)
	f.Add(uint8(2), `{"tau": 0.1, "m_s": 2.0, "base": "ucrl2"}`)
	f.Add(uint8(3), `{"file": "/dev/zero"}`)
	f.Add(uint8(4), `{"count": 9223372036854775807}`)
	types, fams := agenttypes.Names(), families.Names()
	f.Fuzz(func(t *testing.T, which uint8, params string) {
		if !json.Valid([]byte(params)) {
			return
		}
		typ := types[int(which)%len(types)]
		if _, err := newSession(typ, params, 1, 0, ""); err == nil {
			if bad := fractionFor(params); bad != "" && intKey(t, typ, bad) {
				t.Fatalf("agent type %s accepted %s", typ, params)
			}
		}
		decodeFamily(fams[int(which)%len(fams)], params) // no panic, no draw
	})
}

// fractionFor is a key of the JSON object params whose value is a number with a fraction.
func fractionFor(params string) string {
	var m map[string]any
	if json.Unmarshal([]byte(params), &m) != nil {
		return ""
	}
	for k, v := range m {
		if x, ok := v.(float64); ok && x != float64(int64(x)) {
			return k
		}
	}
	return ""
}

// intKey reports whether key of agent type typ's defaults is an integer.
func intKey(t *testing.T, typ, key string) bool {
	ty, err := agenttypes.Lookup(typ)
	if err != nil {
		t.Fatal(err)
	}
	n, err := agenttypes.Encode(ty.Defaults())
	if err != nil {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].ShortTag() == "!!int"
		}
	}
	return false
}
