package families

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ReadOnce store reads a file once: later reads and the digest give the first bytes, whatever
// the file holds by then; a file over the bound is refused, naming it.
func TestReadOnceReadsEachFileOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	reads := 0
	r := &ReadOnce{AfterRead: func(string) { reads++ }}
	if b, err := r.Read(path, 100); err != nil || string(b) != "first" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if err := os.WriteFile(path, []byte("second"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := r.Read(path, 100); err != nil || string(b) != "first" {
		t.Errorf("Read after the file changed = %q, %v; want the first bytes", b, err)
	}
	sum := sha256.Sum256([]byte("first"))
	if d, err := r.Digest(Input{Path: path, MaxBytes: 100}); err != nil || d != hex.EncodeToString(sum[:]) {
		t.Errorf("Digest = %s, %v; want the SHA-256 of the first bytes", d, err)
	}
	if reads != 1 {
		t.Errorf("the file was read %d times, want once", reads)
	}
	if _, err := r.Read(path, 3); err == nil || !strings.Contains(err.Error(), path+" is 5 bytes, more than the 3") {
		t.Errorf("Read with a bound of 3 bytes: %v, want a refusal naming the file", err)
	}
}
