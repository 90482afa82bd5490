package testbin

import (
	"encoding/json"
	"strings"
)

// Output returns the text of an output event (a line of the stream);
// ok is false for other events. The texts of a stream's output events,
// concatenated, are exactly what the binary printed (cmd/test2json).
func Output(event []byte) (text string, ok bool) {
	var e struct{ Action, Output string }
	if err := json.Unmarshal(event, &e); err != nil || e.Action != "output" {
		return "", false
	}
	return e.Output, true
}

// Lines gives back the lines the binary printed from the output events
// (test2json splits a long line into several). The zero value is ready.
type Lines struct {
	partial strings.Builder
}

// Event reads one line of the stream and returns the lines its output
// completed, without their newlines.
func (l *Lines) Event(event []byte) []string {
	text, ok := Output(event)
	if !ok {
		return nil
	}
	var done []string
	for {
		line, rest, found := strings.Cut(text, "\n")
		if !found {
			l.partial.WriteString(text)
			return done
		}
		l.partial.WriteString(line)
		done = append(done, l.partial.String())
		l.partial.Reset()
		text = rest
	}
}

// Rest returns what the binary printed after its last newline.
func (l *Lines) Rest() string { return l.partial.String() }
