package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestLibraryExampleRuns(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"run 0 O-TempLe", "run 1 RMax", "O-TempLe's library after run 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}
