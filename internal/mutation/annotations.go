package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Annotations are the equivalence arguments of equivalent.txt: mutant ID
// → why the mutant cannot change what any runner's user (and so the
// suite) can observe. Only a mutant named here is reported equivalent and
// left out of the score.
type Annotations map[string]string

// parseAnnotations reads lines "ID argument...": blank lines and lines
// starting with # are comments. An ID without an argument, or named
// twice, is an error: an equivalence is argued, never assumed.
func parseAnnotations(r io.Reader) (Annotations, error) {
	a := Annotations{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, arg := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			id, arg = line[:i], strings.TrimSpace(line[i+1:])
		}
		if strings.Count(id, ":") < 3 {
			return nil, fmt.Errorf("line %d: %q is not a mutant ID (file:line:col:operator)", n, id)
		}
		if arg == "" {
			return nil, fmt.Errorf("line %d: %s has no argument: say why it is equivalent", n, id)
		}
		if _, dup := a[id]; dup {
			return nil, fmt.Errorf("line %d: %s is annotated twice", n, id)
		}
		a[id] = arg
	}
	return a, sc.Err()
}

// readAnnotations parses the annotation file at path; a missing file has
// none.
func readAnnotations(path string) (Annotations, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Annotations{}, nil
	}
	if err != nil {
		return nil, err
	}
	return parseAnnotations(bytes.NewReader(data))
}
