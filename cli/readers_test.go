package cli

import (
	"bytes"
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// temple compare, temple report and temple merge read results directories through package
// results alone: the file that holds them imports no runner.
func TestReadersImportOnlyResults(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "readers.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if rest, ok := strings.CutPrefix(path, "github.com/temple-rl/temple/"); ok && rest != "results" && rest != "stats" {
			t.Errorf("readers.go imports %s; compare, report and merge may use only results and stats", path)
		}
	}
}

// compare, report and inspect --results refuse a damaged file, naming it and what is wrong, and
// write nothing: compare.csv is not written, report.html is left as it was.
func TestReadersRefuseDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 3\noutput:\n  templates: true\n"), 0o644)
	out := filepath.Join(dir, "r")
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.html"))
	damage := func(name, from, to string) (restore func()) {
		path := filepath.Join(out, name)
		b, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(b, []byte(from)) {
			t.Fatalf("%s: %v, or no %q in it", name, err, from)
		}
		os.WriteFile(path, bytes.Replace(b, []byte(from), []byte(to), 1), 0o644)
		return func() { os.WriteFile(path, b, 0o644) }
	}
	for _, c := range []struct {
		file, from, to string
		args           []string
		want           string
	}{
		{"summary.json", `"runs": 2`, `"runs": 3`, []string{"compare", out}, "has 2 per-run values for 3 runs"},
		{"summary.json", `"runs": 2`, `"runs": 3`, []string{"report", out}, "has 2 per-run values for 3 runs"},
		{"summary.json", `"format_version": 4`, `"format_version": 9`, []string{"report", out}, "is of results format 9, written by a newer temple"},
		{"metrics.csv", "\n0,", "\n0;", []string{"report", out}, "its content is not what temple wrote"},
		{"templates/run-000--O-TempLe.jsonl", `"task":1`, `"task":0`, []string{"inspect", "--results", out, "--draw", filepath.Join(dir, "draw")},
			"its content is not what temple wrote"},
		// Issue 37, case 5: edits that read as valid files are refused all the same, by their
		// checksums (compare printed a verdict from an edited summary; report a negative CI).
		{"summary.json", `"ci95": `, `"ci95": -`, []string{"compare", out}, "its content is not what temple wrote"},
		{"summary.json", `"ci95": `, `"ci95": -`, []string{"report", out}, "its content is not what temple wrote"},
		{"metrics.csv", "\n0,O-TempLe,0,", "\n0,O-TempLe,0,x", []string{"report", out}, "its content is not what temple wrote"},
		{"per_task.csv", "\n0,", "\n1,", []string{"report", out}, "its content is not what temple wrote"},
		{"tasks.json", `"slip"`, ` "slip"`, []string{"inspect", "--results", out}, "its content is not what temple wrote"},
		{"setup.json", `"epsilon": 0.1`, `"epsilon": 0.5`, []string{"compare", out}, "its content is not what temple wrote"},
	} {
		restore := damage(c.file, c.from, c.to)
		_, err := temple(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(out, c.file)) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("temple %s with %s damaged: %v, want an error naming it and %q", c.args[0], c.file, err, c.want)
		}
		restore()
		if _, err := os.Stat(filepath.Join(out, "compare.csv")); err == nil {
			t.Errorf("temple %s with %s damaged wrote compare.csv", c.args[0], c.file)
		}
		if b, _ := os.ReadFile(filepath.Join(out, "report.html")); !bytes.Equal(b, report) {
			t.Errorf("temple %s with %s damaged changed report.html", c.args[0], c.file)
		}
	}
}

// Issue 37, case 5: report.html embeds only the figures temple wrote (their checksums recorded);
// an SVG put under figures/ by someone else, a script in it, is named and not embedded; a
// deleted per_task.csv is noticed.
func TestReportEmbedsOnlyTemplesFigures(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 2\n"), 0o644)
	out := filepath.Join(dir, "r")
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	evil := `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`
	os.WriteFile(filepath.Join(out, "figures", "evil.svg"), []byte(evil), 0o644)
	if text, err := temple(t, "report", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	page, _ := os.ReadFile(filepath.Join(out, "report.html"))
	if bytes.Contains(page, []byte("<script>")) || !bytes.Contains(page, []byte("figures/evil.svg")) {
		t.Errorf("report.html embeds the foreign figure, or does not name it")
	}
	if !bytes.Contains(page, []byte(`id="per_task_reward"`)) {
		t.Errorf("report.html lost temple's own figures")
	}
	os.Remove(filepath.Join(out, "per_task.csv"))
	if _, err := temple(t, "report", out); err == nil || !strings.Contains(err.Error(), filepath.Join(out, "per_task.csv")+": it is missing") {
		t.Errorf("report with per_task.csv deleted: %v, want a refusal naming it", err)
	}
}

// editRecord changes the record (checksums.json) of the results directory dir by change.
func editRecord(t *testing.T, dir string, change func(files map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, "checksums.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	change(rec["files"].(map[string]any))
	if sizes, ok := rec["sizes"].(map[string]any); ok {
		for name := range sizes {
			if _, listed := rec["files"].(map[string]any)[name]; !listed {
				delete(sizes, name)
			}
		}
	}
	if b, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b, 0o644)
}

// Issue 51, case 5: a derived file whose entry was deleted from checksums.json is refused by every
// reader — an edited summary.json (a verdict flipped) no longer passes compare — and so is a
// directory whose record lists only setup.json and tasks.json (a merge killed while it wrote the
// figures): compare refuses it as report does.
func TestEveryReaderRefusesAnUnlistedFile(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 2\noutput:\n  templates: true\n"), 0o644)
	out := filepath.Join(dir, "r")
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	record, _ := os.ReadFile(filepath.Join(out, "checksums.json"))
	summary, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	readers := [][]string{{"compare", out}, {"report", out}, {"inspect", "--results", out, "--draw", filepath.Join(dir, "draw")}}

	editRecord(t, out, func(files map[string]any) { delete(files, "summary.json") })
	os.WriteFile(filepath.Join(out, "summary.json"), bytes.Replace(summary, []byte(`"ci95": `), []byte(`"ci95": 1`), 1), 0o644)
	for _, args := range readers {
		if _, err := temple(t, args...); err == nil || !strings.Contains(err.Error(), filepath.Join(out, "summary.json")+": checksums.json does not list it") {
			t.Errorf("temple %s with summary.json's entry deleted: %v, want a refusal naming it", args[0], err)
		}
	}
	os.WriteFile(filepath.Join(out, "summary.json"), summary, 0o644)

	editRecord(t, out, func(files map[string]any) {
		for name := range files {
			if name != "setup.json" && name != "tasks.json" && !strings.HasPrefix(name, "cells/") {
				delete(files, name)
			}
		}
	})
	for _, args := range readers {
		if _, err := temple(t, args...); err == nil || !strings.Contains(err.Error(), "checksums.json does not list it") {
			t.Errorf("temple %s with a record of setup.json and tasks.json alone: %v, want a refusal", args[0], err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "compare.csv")); err == nil {
		t.Error("a refused compare wrote compare.csv")
	}
	os.WriteFile(filepath.Join(out, "checksums.json"), record, 0o644)
	if _, err := temple(t, "compare", out); err != nil {
		t.Errorf("the directory as temple wrote it: %v", err)
	}
}

// Issue 51 (LOW): compare writes compare.csv before it prints: a directory it cannot write it to
// (here compare.csv is a directory; a read-only one fails the same way) gets an error, not the
// verdicts followed by an error.
func TestCompareWritesBeforePrinting(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 2\n"), 0o644)
	out := filepath.Join(dir, "r")
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	os.Mkdir(filepath.Join(out, "compare.csv"), 0o755)
	text, err := temple(t, "compare", out)
	if err == nil || strings.Contains(text, "Verdicts") {
		t.Errorf("compare into a directory where compare.csv cannot be written: %v, printed %q", err, text)
	}
}

// Issue 52: compare of a results directory of one agent has nothing to compare: it says so,
// naming the directory, the agent and what compares it, and writes no compare.csv (it wrote one
// of a header alone); --all and --baseline likewise.
func TestCompareOfOneAgentSaysSoAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "alone.yaml")
	os.WriteFile(config, []byte("name: alone\nruns: 2\nepisodes: 20\ntasks:\n  count: 2\nagents:\n  - type: rmax\n"), 0o644)
	out := filepath.Join(dir, "r")
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for _, flags := range [][]string{nil, {"--all"}, {"--baseline", "RMax"}} {
		text, err := temple(t, append([]string{"compare", out}, flags...)...)
		if err == nil || !strings.Contains(err.Error(), out+" holds the results of one agent (RMax): a comparison needs two; nothing is written") ||
			!strings.Contains(err.Error(), "temple compare "+out+" OTHER_DIR") {
			t.Errorf("compare %q of one agent: %v, want a refusal naming the directory, the agent and how to compare it", flags, err)
		}
		if strings.Contains(text, "Verdicts") {
			t.Errorf("compare %q of one agent printed verdicts:\n%s", flags, text)
		}
		if _, err := os.Stat(filepath.Join(out, "compare.csv")); !os.IsNotExist(err) {
			t.Errorf("compare %q of one agent wrote compare.csv (%v)", flags, err)
		}
	}
}

// Issue 51, case 6, at the command line: a run into results of another temple version is refused,
// naming it and --allow-other-version; with the flag it resumes and summary.json records that
// version; merge likewise.
func TestOtherVersionIsRefusedUnlessAllowed(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 2\n"), 0o644)
	out := filepath.Join(dir, "r")
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	older := func(dir string) {
		path := filepath.Join(dir, "checksums.json")
		b, _ := os.ReadFile(path)
		os.WriteFile(path, bytes.Replace(b, []byte(`"tool_version": "`), []byte(`"tool_version": "0.0.9-`), 1), 0o644)
	}
	older(out)
	if _, err := temple(t, "run", config, "--out", out); err == nil || !strings.Contains(err.Error(), "holds results of temple 0.0.9-") ||
		!strings.Contains(err.Error(), "--allow-other-version") {
		t.Errorf("a run into another version's results: %v, want a refusal naming it and the flag", err)
	}
	if text, err := temple(t, "run", config, "--out", out, "--allow-other-version"); err != nil {
		t.Fatalf("--allow-other-version: %v\n%s", err, text)
	}
	b, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	if !strings.Contains(string(b), `"other_versions": [`) || !strings.Contains(string(b), "0.0.9-") {
		t.Errorf("summary.json does not record the other version:\n%s", b)
	}

	shards := []string{filepath.Join(dir, "s0"), filepath.Join(dir, "s1")}
	for i, s := range shards {
		if text, err := temple(t, "run", config, "--shard", strconv.Itoa(i)+"/2", "--out", s); err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
	}
	older(shards[1])
	if _, err := temple(t, append([]string{"merge", filepath.Join(dir, "m")}, shards...)...); err == nil || !strings.Contains(err.Error(), "--allow-other-version") {
		t.Errorf("merging a shard of another version: %v", err)
	}
	if text, err := temple(t, append([]string{"merge", filepath.Join(dir, "m"), "--allow-other-version"}, shards...)...); err != nil {
		t.Errorf("merge --allow-other-version: %v\n%s", err, text)
	}
}
