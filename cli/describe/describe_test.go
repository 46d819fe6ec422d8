package describe

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
)

// The checked-in configuration reference is what the registries give today.
func TestReferenceIsCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := Reference(&b); err != nil {
		t.Fatal(err)
	}
	const page = "../../docs/reference/configuration.md"
	old, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, b.Bytes()) {
		t.Errorf("%s is stale: run go generate ./cli/describe and commit it", page)
	}
}

// Every agent type's entry lists its config keys: its own, and base: with the keys of its base.
func TestAgentTypesListEveryKey(t *testing.T) {
	rmax := keysOf(t, "rmax")
	for _, e := range AgentTypes() {
		typ, err := agenttypes.Lookup(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		want := agenttypes.Keys(typ.Defaults())
		var got []string
		for _, p := range e.Params {
			got = append(got, p.Key)
		}
		if e.Note != "" { // a template learner: its base's keys (rmax by default) apply too
			got = append(got, rmax...)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: described keys %v, the registry's %v", e.Name, got, want)
		}
	}
}

// Every task family's entry lists its config keys, in order.
func TestTaskFamiliesListEveryKey(t *testing.T) {
	for _, e := range TaskFamilies() {
		f, err := families.Lookup(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range e.Params {
			got = append(got, p.Key)
		}
		if want := families.Keys(f.Defaults()); !slices.Equal(got, want) {
			t.Errorf("%s: described keys %v, the registry's %v", e.Name, got, want)
		}
	}
}

func keysOf(t *testing.T, typ string) []string {
	tp, err := agenttypes.Lookup(typ)
	if err != nil {
		t.Fatal(err)
	}
	return agenttypes.Keys(tp.Defaults())
}

// Every key of the config, of every agent type and of every task family has a doc tag, and every entry a summary.
func TestEveryKeyIsDocumented(t *testing.T) {
	if missing := missing(append(append(Config(), AgentTypes()...), TaskFamilies()...)); len(missing) > 0 {
		t.Errorf("undocumented (give each a doc:\"...\" tag beside its yaml tag): %s", strings.Join(missing, ", "))
	}
}

// Of reads keys, defaults, bounds and docs from the tags, descending into embedded and inline
// structs.
func TestOf(t *testing.T) {
	type inner struct {
		Tau float64 `yaml:"tau" doc:"template gap τ̂" range:"> 0"`
	}
	type params struct {
		M      int64    `yaml:"m" doc:"known threshold m" range:">= 1"`
		Order  string   `yaml:"order" doc:"how tasks follow" range:"cycle | random"`
		Bins   []int    `yaml:"bins" doc:"bins per dimension"`
		Hidden int      `yaml:"-"`
		Base   struct{} // read by its own decoder
		inner
		Extra struct {
			On bool `yaml:"on"`
		} `yaml:",inline"`
	}
	got := Of(&params{M: 500, Order: "cycle", Bins: []int{10, 10}, inner: inner{Tau: 0.15}})
	want := []Param{
		{Key: "m", Type: "integer", Default: "500", Range: ">= 1", Doc: "known threshold m"},
		{Key: "order", Type: "string", Default: "cycle", Range: "cycle | random", Doc: "how tasks follow"},
		{Key: "bins", Type: "list", Default: "[10, 10]", Doc: "bins per dimension"},
		{Key: "tau", Type: "number", Default: "0.15", Range: "> 0", Doc: "template gap τ̂"},
		{Key: "on", Type: "boolean", Default: "false"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Of =\n%v, want\n%v", got, want)
	}
	if m := missing([]Entry{{Name: "x", Summary: "s", Params: got}}); !slices.Equal(m, []string{"x: on"}) {
		t.Errorf("Missing = %v, want [x: on]", m)
	}
}

// missing lists, as "NAME: key", every key of the entries without a doc tag, and as "NAME" every
// entry without a summary.
func missing(entries []Entry) []string {
	var out []string
	for _, e := range entries {
		if e.Summary == "" {
			out = append(out, e.Name+" (no summary)")
		}
		for _, p := range e.Params {
			if p.Doc == "" {
				out = append(out, e.Name+": "+p.Key)
			}
		}
	}
	return out
}

// The results format's table of files is what results.Layout gives today.
func TestResultsFilesAreCurrent(t *testing.T) {
	const page = "../../docs/reference/results-format.md"
	old, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	now, err := SpliceResultsFiles(old)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, now) {
		t.Errorf("%s's table of files is stale: run go generate ./cli/describe and commit it", page)
	}
}

// Python's temple.results.load checks a results directory as package results does, with the
// names of results.Layout and results.FormatVersion generated into python/temple/results.py: they
// are what the layout gives today, and each table the loader reads is a CSV file of the layout,
// named by its generated constant.
func TestPythonLoaderIsCurrent(t *testing.T) {
	const loader = "../../python/temple/results.py"
	old, err := os.ReadFile(loader)
	if err != nil {
		t.Fatal(err)
	}
	now, err := SplicePythonFiles(old)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, now) {
		t.Errorf("%s's names of the results files are stale: run go generate ./cli/describe and commit it", loader)
	}
	tables := regexp.MustCompile(`(?s)\n_TABLES = \[(.*?)\n\]`).FindSubmatch(old)
	if tables == nil {
		t.Fatalf("%s has no _TABLES", loader)
	}
	rows := regexp.MustCompile(`\("(\w+)", (\w+), (True|False)\)`).FindAllSubmatch(tables[1], -1)
	if len(rows) == 0 {
		t.Fatalf("%s's _TABLES lists no table:\n%s", loader, tables[1])
	}
	for _, row := range rows {
		if !slices.ContainsFunc(results.Layout, func(f results.File) bool {
			return pythonName(f.Name) == string(row[2]) && !f.Dir && strings.HasSuffix(f.Name, ".csv")
		}) {
			t.Errorf("%s's table %s reads %s, not the constant of a CSV file of results.Layout", loader, row[1], row[2])
		}
	}
}

// A file's Python constant is its name in capitals, other characters as underscores.
func TestPythonName(t *testing.T) {
	for name, want := range map[string]string{"spec.yaml": "_SPEC_YAML", "scaling_fit.csv": "_SCALING_FIT_CSV",
		".temple.lock": "_TEMPLE_LOCK", "cells": "_CELLS"} {
		if got := pythonName(name); got != want {
			t.Errorf("pythonName(%q) = %s, want %s", name, got, want)
		}
	}
}
