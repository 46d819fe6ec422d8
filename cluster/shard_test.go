package cluster

import (
	"fmt"
	"strings"
	"testing"
)

func TestShardParsingAndEnvironment(t *testing.T) {
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("shard %q accepted", bad)
		}
	}
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
		ok   bool
		err  string
	}{
		{map[string]string{}, "0/0", false, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "3"}, "1/3", true, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "2", "TEMPLE_SHARDS": "4"}, "2/4", true, ""},
		// A Slurm array task resubmitted alone (sbatch --array=1) is told the count by TEMPLE_SHARDS.
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "1", "TEMPLE_SHARDS": "3"}, "1/3", true, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "TEMPLE_SHARDS": "3"}, "", false, "indices must be 0 to TEMPLE_SHARDS-1"},
		{map[string]string{"JOB_COMPLETION_INDEX": "2"}, "", false, "TEMPLE_SHARDS is not"},
		// Issue 37, case 8: TEMPLE_SHARDS alone ran every cell without a word.
		{map[string]string{"TEMPLE_SHARDS": "4"}, "", false, "neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"}, "", false, `SLURM_ARRAY_TASK_ID = "x"`},
	} {
		sh, ok, err := ShardFromEnv(env(c.env))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.env, err, c.err)
			}
			continue
		}
		if err != nil || ok != c.ok || fmt.Sprint(sh) != c.want {
			t.Errorf("%v: shard %v ok %v err %v, want %s %v", c.env, sh, ok, err, c.want, c.ok)
		}
	}
}

// FuzzShardFromEnv: whatever the cluster's environment variables hold, ShardFromEnv returns a
// shard that is one of its count, or an error, never panics (issue 51: no input from the
// environment crashes the process).
func FuzzShardFromEnv(f *testing.F) {
	f.Add("3", "8", "0", "", "", "")
	f.Add("", "", "", "2", "4", "")
	f.Add("9223372036854775807", "-1", "9223372036854775807", "", "", "2")
	f.Add("1", "", "", "", "", "x")
	f.Fuzz(func(t *testing.T, id, count, lo, index, shards, extra string) {
		env := map[string]string{"SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_COUNT": count, "SLURM_ARRAY_TASK_MIN": lo,
			"JOB_COMPLETION_INDEX": index, "TEMPLE_SHARDS": shards + extra}
		sh, ok, err := ShardFromEnv(func(k string) string { return env[k] })
		if err == nil && ok && !(sh.Count >= 1 && sh.Index >= 0 && sh.Index < sh.Count) {
			t.Fatalf("ShardFromEnv(%q) = %v", env, sh)
		}
	})
}
