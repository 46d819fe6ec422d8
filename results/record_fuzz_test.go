package results

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzRecord: whatever a directory holds — files of temple's names and others, in temple's
// subdirectories or not, and a checksums.json of any content (names outside the directory, a
// version) — Verify, Claim and Discard never panic, and:
//   - Discard removes no file that a valid record does not list, nothing outside the directory,
//     and no directory that is not left empty (issue 51, case 2);
//   - Claim without --force refuses a directory holding a file of temple's names that the record
//     does not list (case 12), and one whose record is of a newer format (case 7);
//   - Verify passes only when every file of temple's names at the top is listed (case 5).
func FuzzRecord(f *testing.F) {
	f.Add([]byte(`{"files":{"summary.json":"`+strings.Repeat("0", 64)+`"}}`), "summary.json\nnotes.txt\nfigures/mine.svg", uint8(3))
	f.Add([]byte(`{"tool_version":"0.0.1","format_version":4,"files":{"../x":"`+strings.Repeat("0", 64)+`"}}`), "x\ncells/a.json", uint8(0))
	f.Add([]byte(`{"format_version":9,"files":{}}`), "cells/run-000--A.json\nspec.yaml", uint8(1))
	f.Add([]byte(`not json`), "per_task.csv", uint8(2))
	f.Fuzz(func(t *testing.T, manifest []byte, names string, listed uint8) {
		root := t.TempDir()
		dir, outside := filepath.Join(root, "d"), filepath.Join(root, "outside")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(outside, []byte("keep"), 0o644)
		var files []string
		for _, name := range strings.Split(names, "\n") {
			if !filepath.IsLocal(name) || strings.ContainsAny(name, "\x00\\:") || len(files) == 8 || len(name) > 64 {
				continue
			}
			path := filepath.Join(dir, name)
			if os.MkdirAll(filepath.Dir(path), 0o755) != nil || os.WriteFile(path, []byte(name), 0o644) != nil {
				continue
			}
			files = append(files, filepath.ToSlash(name))
		}
		os.WriteFile(filepath.Join(dir, ChecksumsFile), manifest, 0o644)
		if listed%4 == 0 { // sometimes a record temple wrote, listing some of the files
			os.Remove(filepath.Join(dir, ChecksumsFile))
			for k, name := range files {
				if k%2 == 0 {
					record(At(dir), name)
				}
			}
		}
		sums, recErr := readChecksums(At(dir))
		present := func(name string) bool { _, err := os.Lstat(filepath.Join(dir, name)); return err == nil }

		if Verify(At(dir)) == nil {
			for _, name := range templeFiles {
				if fi, err := os.Lstat(filepath.Join(dir, name)); err == nil && !fi.IsDir() && name != ChecksumsFile && !sums.lists(name) {
					t.Fatalf("Verify passed with %s there and not listed", name)
				}
			}
		}

		_, release, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{})
		if err == nil {
			release()
			if recErr == nil && sums.FormatVersion > FormatVersion {
				t.Fatalf("Claim took a directory of format %d", sums.FormatVersion)
			}
			for _, name := range files {
				top := !strings.Contains(name, "/")
				if top && name != "spec.yaml" && slices.Contains(templeFiles, name) && (recErr != nil || !sums.lists(name)) {
					t.Fatalf("Claim took a directory holding %s, which its record does not list", name)
				}
			}
			sums, recErr = readChecksums(At(dir)) // Claim recorded spec.yaml
		}

		before := map[string]bool{}
		for _, name := range files {
			before[name] = present(name)
		}
		if err := Discard(At(dir), func(string) {}); err != nil {
			return
		}
		if b, _ := os.ReadFile(outside); string(b) != "keep" {
			t.Fatal("Discard removed or changed a file outside the directory")
		}
		for _, name := range files {
			if before[name] && !present(name) && (recErr != nil || !sums.lists(name)) {
				t.Fatalf("Discard removed %s, which the record does not list (%v)", name, recErr)
			}
			for d := filepath.Dir(filepath.Join(dir, name)); d != dir && strings.HasPrefix(d, dir); d = filepath.Dir(d) {
				if _, err := os.Stat(d); err != nil && present(name) {
					t.Fatalf("Discard removed the directory of %s", name)
				}
			}
		}
	})
}
