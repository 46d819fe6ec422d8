package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzEditedFileIsRefused: a recorded file changed in any way (bytes replaced at any place,
// appended or cut) is refused by Verify and by the readers' verifyFile, naming it; the
// unchanged file passes; checksums.json replaced by anything never makes Verify panic or accept a
// file whose checksum it does not hold.
func FuzzEditedFileIsRefused(f *testing.F) {
	f.Add(uint16(3), []byte("x"), false, []byte(`{"files":{}}`))
	f.Add(uint16(0), []byte(""), true, []byte(`{"files":{"summary.json":"00"}}`))
	f.Add(uint16(40), []byte("NaN"), false, []byte(`{"files":{"../x":"0000000000000000000000000000000000000000000000000000000000000000"}}`))
	f.Fuzz(func(t *testing.T, at uint16, with []byte, cut bool, manifest []byte) {
		dir := t.TempDir()
		content := []byte(`{"name": "x", "runs": 2, "agents": [{"name": "A", "mean_per_task_reward": 1, "ci95": 0.5, "per_run": [1, 1]}]}`)
		path := filepath.Join(dir, "summary.json")
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := record(At(dir), "summary.json"); err != nil {
			t.Fatal(err)
		}
		if err := Verify(At(dir)); err != nil {
			t.Fatalf("the file as written: %v", err)
		}
		i := int(at) % (len(content) + 1)
		edited := append(append(append([]byte{}, content[:i]...), with...), content[min(i+len(with), len(content)):]...)
		if cut {
			edited = content[:i]
		}
		os.WriteFile(path, edited, 0o644)
		err := verifyFile(At(dir), "summary.json")
		var damaged *DamagedError
		if bytes.Equal(edited, content) != (err == nil) || err != nil && (!errors.As(err, &damaged) || damaged.Path != path) {
			t.Fatalf("edited %v: verifyFile = %v", !bytes.Equal(edited, content), err)
		}
		if (Verify(At(dir)) == nil) != (err == nil) {
			t.Fatalf("Verify and verifyFile disagree")
		}

		// Any checksums.json: no panic; a file it passes has the checksum it records.
		os.WriteFile(filepath.Join(dir, ChecksumsFile), manifest, 0o644)
		if Verify(At(dir)) == nil {
			sums, err := readChecksums(At(dir))
			if err != nil {
				t.Fatalf("Verify passed an unreadable record: %v", err)
			}
			for name, want := range sums.Files {
				if got, _, err := fileSHA256(filepath.Join(dir, filepath.FromSlash(name)), maxHashedBytes); err != nil || got != want {
					t.Fatalf("Verify passed %s with checksum %s, recorded %s", name, got, want)
				}
			}
		}
	})
}
