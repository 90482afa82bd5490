package reports

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes run as indented JSON (the model's field tags), one
// trailing newline.
func WriteJSON(w io.Writer, run Run) error {
	b, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report json: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write report json: %w", err)
	}
	return nil
}

// ReadJSON reads a run WriteJSON wrote.
func ReadJSON(r io.Reader) (Run, error) {
	var run Run
	if err := json.NewDecoder(r).Decode(&run); err != nil {
		return Run{}, fmt.Errorf("decode report json: %w", err)
	}
	return run, nil
}
