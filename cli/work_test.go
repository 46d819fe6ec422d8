package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 37, case 6: a run estimated at more than an hour (episodes: 1e9) needs --yes at a
// terminal, and starts in batch mode with the estimate printed; nothing is written when refused.
func TestLongRunNeedsYes(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "long.yaml")
	os.WriteFile(config, []byte("name: long\nruns: 1\nepisodes: 1000000000\ntasks:\n  count: 2\nagents: [{type: rmax}]\n"), 0o644)
	out := filepath.Join(dir, "r")
	defer func(f func() bool) { stdinIsTerminal = f }(stdinIsTerminal)

	stdinIsTerminal = func() bool { return true }
	_, err := temple(t, "run", config, "--out", out)
	if err == nil || !strings.Contains(err.Error(), "6e+10 environment steps") || !strings.Contains(err.Error(), "give --yes") {
		t.Fatalf("a long run at a terminal: %v, want the estimate and --yes asked for", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the refused run made %s", out)
	}

	// In batch mode and with --yes it starts (here into a context already cancelled, so that it
	// stops at once), with the estimate printed.
	for _, c := range []struct {
		terminal bool
		args     []string
		want     string
	}{
		{false, nil, "Starting without --yes: batch mode"},
		{true, []string{"--yes"}, "Estimated: 1 cells"},
	} {
		stdinIsTerminal = func() bool { return c.terminal }
		cmd := root()
		var text bytes.Buffer
		cmd.SetOut(&text)
		cmd.SetErr(&text)
		cmd.SetArgs(append([]string{"run", config, "--out", out}, c.args...))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := cmd.ExecuteContext(ctx)
		if !strings.Contains(text.String(), c.want) || err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("terminal %v, %q: %v\n%s\nwant %q and a start", c.terminal, c.args, err, text.String(), c.want)
		}
	}
}
