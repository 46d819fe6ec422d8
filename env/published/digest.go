package published

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Digest is the SHA-256, in hex, of the published task sequences called name as shipped in this
// binary: the identity of the tasks a run reads from "published:NAME" (an experiment's record of
// the files its results depend on).
func Digest(name string) (string, error) {
	data, err := files.ReadFile("data/" + name + ".json")
	if err != nil {
		return "", fmt.Errorf("published: no task sequences %q", name)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
