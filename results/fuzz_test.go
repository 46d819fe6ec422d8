package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/temple-rl/temple/oracle"
)

// The fuzz targets of the readers of a results directory: whatever the bytes of a file, a reader
// returns what it read or an error, never panics; and what it accepts, the writers can use.

// fixtureSpec is the spec.yaml of the small experiment the fuzz targets start from: 2 runs of 2
// tasks, agents A and B, the oracle on, 2 episodes per task.
const fixtureSpec = "name: f\nseed: 1\nruns: 2\nepisodes: 2\nagents:\n  - type: rmax\n    name: A\n  - type: rmax\n    name: B\n"

const fixtureTasks = `{"format":"temple-task-sequences/v2","runs":[[{"family":"taxi"},{"family":"taxi"}],[{"family":"taxi"},{"family":"taxi"}]]}`

func fixtureSetup(tb testing.TB) Setup {
	spec, err := SpecJSON([]byte(fixtureSpec))
	if err != nil {
		tb.Fatal(err)
	}
	return Setup{FormatVersion: FormatVersion, Name: "f", Seed: 1, Runs: 2, Episodes: 2, Agents: []string{"A", "B"}, Baseline: "B",
		Oracle: true, Epsilon: 0.1, Spec: spec, SpecYAML: []byte(fixtureSpec)}
}

func fixtureCell(run int, agent string) CellResult {
	c := CellResult{Fingerprint: Fingerprint([]byte(fixtureSpec)), Run: run, Agent: agent, EpisodeSums: []float64{1.5, 2}}
	for k := range 2 {
		c.Tasks = append(c.Tasks, TaskRecord{Task: k, Reward: float64(run + k), Steps: 10, States: 5, Actions: 2, Start: k,
			Oracle: &oracle.Record{OptimalReward: 3, OptimalDiscountedStart: 1, Mistakes: 2}})
	}
	return c
}

func fixtureWant(run int, agent string) CellWant {
	return CellWant{Fingerprint: Fingerprint([]byte(fixtureSpec)), Run: run, Agent: agent, Tasks: 2, Episodes: 2, Oracle: true}
}

// fixtureShards are the files of the fixture experiment's two shards (cell c in shard c mod 2),
// by path below a directory holding both.
func fixtureShards(tb testing.TB) map[string][]byte {
	setup, err := json.Marshal(fixtureSetup(tb))
	if err != nil {
		tb.Fatal(err)
	}
	files := map[string][]byte{}
	for i := range 2 {
		shard := filepath.Join("shard", string(rune('0'+i)))
		files[filepath.Join(shard, "spec.yaml")] = []byte(fixtureSpec)
		files[filepath.Join(shard, setupFile)] = setup
		files[filepath.Join(shard, "tasks.json")] = []byte(fixtureTasks)
	}
	for run := range 2 {
		for k, agent := range []string{"A", "B"} {
			b, err := EncodeCell(fixtureCell(run, agent))
			if err != nil {
				tb.Fatal(err)
			}
			files[filepath.Join("shard", string(rune('0'+k)), "cells", CellName(run, agent)+".json")] = b
		}
	}
	for i := range 2 {
		addChecksums(tb, files, filepath.Join("shard", string(rune('0'+i))))
	}
	return files
}

// addChecksums sets the checksums.json of directory dir of files to record every file there (the
// layout files, spec.yaml, the cells), as temple records them.
func addChecksums(tb testing.TB, files map[string][]byte, dir string) {
	sums := checksums{ToolVersion: Version, FormatVersion: FormatVersion, Files: map[string]string{}, Sizes: map[string]int64{}}
	for path, b := range files {
		name, err := filepath.Rel(dir, path)
		if err != nil || !filepath.IsLocal(name) || name == ChecksumsFile {
			continue
		}
		sum := sha256.Sum256(b)
		sums.Files[filepath.ToSlash(name)] = hex.EncodeToString(sum[:])
		sums.Sizes[filepath.ToSlash(name)] = int64(len(b))
	}
	b, err := json.Marshal(sums)
	if err != nil {
		tb.Fatal(err)
	}
	files[filepath.Join(dir, ChecksumsFile)] = b
}

func FuzzDecodeCell(f *testing.F) {
	b, err := EncodeCell(fixtureCell(1, "A"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"fingerprint":"x","run":1,"agent":"A","tasks":[],"episode_sums":[],"checksum":"y"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := fixtureWant(1, "A")
		c, problem := DecodeCell(data, want)
		if problem != "" {
			return
		}
		again, err := EncodeCell(c)
		if err != nil {
			t.Fatalf("an accepted cell does not encode: %v", err)
		}
		if _, problem := DecodeCell(again, want); problem != "" {
			t.Fatalf("an accepted cell, encoded again, is refused: %s", problem)
		}
		s := fixtureSetup(t)
		s.Runs, s.Agents, s.Baseline = 1, []string{"A"}, ""
		c.Run = 0
		Summarize(s, []CellResult{c})
	})
}

func FuzzParseSummary(f *testing.F) {
	f.Add([]byte(`{"name":"x","format_version":2,"runs":2,"agents":[{"name":"A","mean_per_task_reward":1,"ci95":0.5,"per_run":[1,2]},` +
		`{"name":"B","mean_per_task_reward":1,"ci95":0.5,"per_run":[0,2]}]}`))
	f.Add([]byte(`{"name":"x","runs":1,"agents":[{"name":"A","per_run":[1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sum, err := ParseSummary("summary.json", data)
		if err != nil {
			return
		}
		Compare(sum, "")
		Compare(sum, sum.Agents[0].Name)
	})
}

func FuzzParseSetup(f *testing.F) {
	b, err := json.Marshal(fixtureSetup(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseSetup(At("shard"), data, []byte(fixtureSpec))
		if err != nil {
			return
		}
		Summarize(s, nil)
	})
}

func FuzzParseTaskCounts(f *testing.F) {
	f.Add([]byte(fixtureTasks))
	f.Fuzz(func(t *testing.T, data []byte) {
		counts, err := parseTaskCounts("tasks.json", data, 2)
		if err == nil && (len(counts) != 2 || counts[0] < 1 || counts[1] < 1) {
			t.Fatalf("accepted task counts %v", counts)
		}
	})
}

func FuzzSweepSetup(f *testing.F) {
	f.Add([]byte(`{"name":"s","runs":2,"params":["tau"],"agents":["A","B"],"points":[{"dir":"tau-0.1","values":["0.1"]},{"dir":"tau-0.3","values":["0.3"]}],"true_value":0.2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sw SweepSetup
		if json.Unmarshal(data, &sw) != nil || checkSweep("sweep.json", sw) != nil {
			return
		}
		sums := make([]Summary, len(sw.Points))
		for k := range sums {
			sums[k].Agents = []AgentSummary{{Name: sw.Agents[0], MeanPerTaskReward: 1}}
		}
		SweepPoints(sw, sums)
	})
}

func FuzzScalingSetup(f *testing.F) {
	f.Add([]byte(`{"name":"s","runs":2,"agents":["A","B"],"templates":["A"],"points":[{"dir":"size-4","series":"size","size":4,"landforms":[0,0.2],"S":16,"SA":64,"G":3},` +
		`{"dir":"size-6","series":"size","size":6,"landforms":[0,0.2],"S":36,"SA":144,"G":3}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sc ScalingSetup
		if json.Unmarshal(data, &sc) != nil || checkScaling("scaling.json", sc) != nil {
			return
		}
		cells := make([][]CellResult, len(sc.Points))
		for k := range cells {
			c := fixtureCell(0, sc.Agents[0])
			cells[k] = []CellResult{c}
		}
		Scaling(sc, cells)
	})
}

func FuzzParseSnapshots(f *testing.F) {
	f.Add([]byte(`{"task":0,"pairs":[0,-1,1],"library":[{"id":0,"visits":[{"rank":0,"n":3},{"rank":2,"n":1}],"reward":1},{"id":1,"visits":[{"rank":0,"n":1}],"reward":0}]}` + "\n" +
		`{"task":1,"pairs":[0,0,1],"library":[{"id":0,"visits":[{"rank":0,"n":4}],"reward":2},{"id":1,"visits":[{"rank":1,"n":1}],"reward":0}]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		snaps, err := ParseSnapshots("templates.jsonl", data)
		if err != nil {
			return
		}
		for _, s := range snaps {
			for _, tm := range s.Library {
				tm.Mean()
			}
		}
	})
}

// FuzzMergeShards replaces one file of the fixture's shards (chosen by which, one of their files
// or a sweep.json or scaling.json beside the first shard's) by data and reads the shards as
// Merge does; what it accepts must summarize.
func FuzzMergeShards(f *testing.F) {
	files := fixtureShards(f)
	var names []string
	for name := range files {
		names = append(names, name)
	}
	names = append(names, filepath.Join("shard", "0", sweepFile), filepath.Join("shard", "0", scalingFile))
	slices.Sort(names[:len(names)-2])
	for k, name := range names {
		if b, ok := files[name]; ok {
			f.Add(uint8(k), b[:len(b)/2])
		}
	}
	f.Add(uint8(len(names)-2), []byte(`{"name":"s","runs":2,"params":["tau"],"agents":["A"],"points":[{"dir":".","values":["1"]}]}`))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		dir := t.TempDir()
		// The replaced file's checksum recorded as temple would: the readers behind the
		// checksums are fuzzed, not the checksums.
		changed := maps.Clone(files)
		changed[names[int(which)%len(names)]] = data
		addChecksums(t, changed, filepath.Join("shard", "0"))
		addChecksums(t, changed, filepath.Join("shard", "1"))
		for name, b := range changed {
			os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
			os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		m, err := readShards([]Dir{At(filepath.Join(dir, "shard", "0")), At(filepath.Join(dir, "shard", "1"))}, MergeOptions{})
		if err != nil {
			return
		}
		for k := range m.subdirs {
			Summarize(m.setups[k], m.cells[k])
		}
	})
}

// The fuzz targets' shards, as written, merge: the fuzzers start from files the readers accept.
func TestFixtureShardsMerge(t *testing.T) {
	dir := t.TempDir()
	for name, b := range fixtureShards(t) {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	if err := Merge(filepath.Join(dir, "merged"), []string{filepath.Join(dir, "shard", "0"), filepath.Join(dir, "shard", "1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSummary(At(filepath.Join(dir, "merged"))); err != nil {
		t.Error(err)
	}
}
