package linearizability

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/anishathalye/porcupine"
)

// visualization is what Visualize draws. porcupine sorts the info in
// place while drawing, hence the lock: copies of a Result share it.
type visualization struct {
	mu    sync.Mutex
	model porcupine.Model
	info  porcupine.LinearizationInfo
}

var errNoVisualization = errors.New("no visualization: only illegal and unknown results have one")

// CanVisualize reports whether r has a history to draw: it is Illegal, or
// Unknown with the partial linearizations found before the budget ran out
// (none when the partition had too many operations to be searched).
func (r Result) CanVisualize() bool {
	return r.viz != nil && r.Verdict != Ok
}

// Visualize writes porcupine's HTML visualization of the partition r is
// about (r.Key) to path, creating parent directories: the history, the
// longest partial linearizations with the model state after each step,
// and the annotations (the partition's, the run-wide ones, and a
// "partition" row naming the key). The page is for people: porcupine
// orders partial linearizations of equal length arbitrarily, so it is not
// byte-stable and must not be a golden file.
func (r Result) Visualize(path string) error {
	if !r.CanVisualize() {
		return fmt.Errorf("visualize %s result: %w", r.Verdict, errNoVisualization)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("visualize: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("visualize: %w", err)
	}
	r.viz.mu.Lock()
	err = porcupine.Visualize(r.viz.model, r.viz.info, f)
	r.viz.mu.Unlock()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("visualize %s: %w", path, err)
	}
	return nil
}

// VisualizeTo writes the visualization Visualize writes to w.
func (r Result) VisualizeTo(w io.Writer) error {
	if !r.CanVisualize() {
		return fmt.Errorf("visualize %s result: %w", r.Verdict, errNoVisualization)
	}
	r.viz.mu.Lock()
	defer r.viz.mu.Unlock()
	if err := porcupine.Visualize(r.viz.model, r.viz.info, w); err != nil {
		return fmt.Errorf("visualize: %w", err)
	}
	return nil
}
