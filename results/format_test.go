package results

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// summary.json's spec is spec.yaml's, in the config's names and order.
func TestSpecJSONKeepsTheConfigsNames(t *testing.T) {
	got, err := SpecJSON([]byte("name: x\nseed: 18446744073709551615\ngamma: 0.95\nstart_state: null\nagents:\n" +
		"  - type: o-temple\n    m_s: 50\n    consolidate: true\n    tau: 1e-05\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"x","seed":18446744073709551615,"gamma":0.95,"start_state":null,"agents":[{"type":"o-temple","m_s":50,"consolidate":true,"tau":0.00001}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := SpecJSON([]byte("x: .inf\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("an infinite number: %v", err)
	}
}

// A summary.json of a newer format is refused, naming the file and both versions; one of format 1
// (no format_version) is refused too, for its directory has no checksums.json (format 3), with the
// command that writes it again; with its checksum recorded, it is read.
func TestReadSummaryChecksTheFormatVersion(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "summary.json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"name": "x", "format_version": 99, "runs": 2, "agents": []}`)
	if _, err := ReadSummary(At(dir)); err == nil || !strings.Contains(err.Error(), "summary.json is of results format 99, written by a newer temple") {
		t.Errorf("a newer summary: %v", err)
	}
	write(`{"name": "x", "runs": 2, "agents": [{"name": "A", "mean_per_task_reward": 1, "ci95": 0, "per_run": [1, 1]}]}`)
	if _, err := ReadSummary(At(dir)); err == nil || !strings.Contains(err.Error(), "has no checksums.json") || !strings.Contains(err.Error(), "temple run") {
		t.Errorf("a summary of format 1: %v, want a refusal that says how to write the directory again", err)
	}
	if err := record(At(dir), "summary.json"); err != nil {
		t.Fatal(err)
	}
	if sum, err := ReadSummary(At(dir)); err != nil || sum.Runs != 2 || len(sum.Agents) != 1 {
		t.Errorf("a summary with its checksum: %v, %+v", err, sum)
	}
}

// setup.json of a newer format is refused; of an older one too, with the command that writes the
// directory again.
func TestReadSetupChecksTheFormatVersion(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "spec.yaml"), []byte("name: x\n"), 0o644)
	if err := record(At(dir), "spec.yaml"); err != nil {
		t.Fatal(err)
	}
	for version, want := range map[string]string{
		`"format_version": 99,`: "is of results format 99, written by a newer temple",
		``:                      "is of results format 1, written by an older temple than this one (" + Version + ", format " + strconv.Itoa(FormatVersion) + "); run the experiment (or this shard) again with this temple: temple run " + filepath.Join(dir, "spec.yaml"),
	} {
		os.WriteFile(filepath.Join(dir, setupFile), []byte(`{`+version+`"name": "x", "runs": 1, "agents": ["A"], "spec": {}}`), 0o644)
		if err := record(At(dir), setupFile); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSetup(At(dir)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("setup.json {%s…}: %v, want %q", version, err, want)
		}
	}
	if err := WriteSetup(At(dir), Setup{Name: "x", Runs: 1, Episodes: 1, Agents: []string{"A"}, Spec: []byte(`{"name":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	if s, err := ReadSetup(At(dir)); err != nil || s.FormatVersion != FormatVersion {
		t.Errorf("this format: %v, %+v", err, s)
	}
}
