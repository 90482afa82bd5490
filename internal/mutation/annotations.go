package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// Annotations are the equivalence arguments of equivalent.txt: mutant ID
// → why the mutant cannot change what any runner's user (and so the
// suite) can observe. Only a mutant named here is reported equivalent and
// left out of the score.
type Annotations map[string]string

// parseAnnotations reads lines "ID@pin argument...": blank lines and
// lines starting with # are comments. An ID without an argument, or named
// twice, is an error: an equivalence is argued, never assumed. The pin
// (Mutant.Pin, which -list prints after each ID) ties the argument to the
// code it was made about: an ID is only a position, and once the source
// moves it may name another mutant, which the argument must not cover
// (pinnedTo). pins maps each pinned ID to its pin.
func parseAnnotations(r io.Reader) (a Annotations, pins map[string]string, err error) {
	a, pins = Annotations{}, map[string]string{}
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
		id, pin, pinned := strings.Cut(id, "@")
		if strings.Count(id, ":") < 3 {
			return nil, nil, fmt.Errorf("line %d: %q is not a mutant ID (file:line:col:operator)", n, id)
		}
		if pinned && pin == "" {
			return nil, nil, fmt.Errorf("line %d: %s has an empty pin after @", n, id)
		}
		if arg == "" {
			return nil, nil, fmt.Errorf("line %d: %s has no argument: say why it is equivalent", n, id)
		}
		if _, dup := a[id]; dup {
			return nil, nil, fmt.Errorf("line %d: %s is annotated twice", n, id)
		}
		a[id] = arg
		if pinned {
			pins[id] = pin
		}
	}
	return a, pins, sc.Err()
}

// pinnedTo keeps the annotations that apply to today's source: current
// maps every generated mutant's ID to its pin. An annotation without a
// pin, or whose pin is not its mutant's today (the code at that position
// changed, or another mutant moved there), is dropped, and revisit says
// why; one whose ID names no mutant is kept for the report's stale list.
func (a Annotations) pinnedTo(pins, current map[string]string, file string) (kept Annotations, revisit []string) {
	kept = Annotations{}
	for _, id := range slices.Sorted(maps.Keys(a)) {
		cur, generated := current[id]
		switch pin, ok := pins[id]; {
		case !generated:
			kept[id] = a[id]
		case !ok:
			revisit = append(revisit, fmt.Sprintf("%s in %s has no pin, so it is not applied: check the argument against the mutant and write its ID as %s@%s.", code(id), file, id, cur))
		case pin != cur:
			revisit = append(revisit, fmt.Sprintf("%s in %s was argued for other code (pin %s; the mutant there now is pin %s), so it is not applied: re-argue it against today's mutant (-list -only) and re-pin it, or move it to the mutant's new ID.", code(id), file, pin, cur))
		default:
			kept[id] = a[id]
		}
	}
	return kept, revisit
}

// readAnnotations parses the annotation file at path; a missing file has
// none.
func readAnnotations(path string) (Annotations, map[string]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Annotations{}, map[string]string{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return parseAnnotations(bytes.NewReader(data))
}
