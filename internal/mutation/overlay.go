package main

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// overlay is the file go build -overlay reads: each original path built
// from the replacement's content instead, so that the tree is never
// written.
type overlay struct {
	Replace map[string]string
}

// writeOverlay writes the mutant's file (src, already mutated) into dir
// under the original's base name, and dir/overlay.json mapping the
// original's absolute path to it; it returns the overlay file's path.
func writeOverlay(dir, original string, src []byte) (string, error) {
	orig, err := filepath.Abs(original)
	if err != nil {
		return "", err
	}
	repl, err := filepath.Abs(filepath.Join(dir, filepath.Base(original)))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(repl, src, 0o644); err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(overlay{Replace: map[string]string{orig: repl}}, "", "\t")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return "", err
	}
	return path, nil
}
