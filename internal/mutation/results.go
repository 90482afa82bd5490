package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Result is one mutant's verdict as the results file keeps it.
type Result struct {
	ID       string   `json:"id"`
	Operator string   `json:"operator"`
	Diff     string   `json:"diff"`
	Status   Status   `json:"status"`
	By       []string `json:"by,omitempty"`     // killed: the failing tests
	Detail   string   `json:"detail,omitempty"` // invalid: the error; killed: a crash line; error: why
	Build    float64  `json:"build_s,omitempty"`
	Run      float64  `json:"run_s,omitempty"`
}

// Run is a whole run: what was judged, how, and the verdicts so far. The
// results file (-results, -resume) holds one, rewritten after every
// mutant; the report is rendered from it.
type Run struct {
	Date      string         `json:"date"`
	Commit    string         `json:"commit"`
	Dirty     []string       `json:"dirty,omitempty"` // mutated packages with uncommitted changes
	Command   string         `json:"command"`
	Judge     string         `json:"judge"`
	Race      bool           `json:"race,omitempty"` // survivors touching synchronization judged again with -race
	JudgeKey  string         `json:"judge_key"`
	Timeout   string         `json:"timeout"`
	Packages  []string       `json:"packages"`
	Files     int            `json:"files"`
	Generated int            `json:"generated"`
	Operators map[string]int `json:"operators"` // generated, per operator
	Sample    int            `json:"sample"`    // 0: every mutant
	Seed      uint64         `json:"seed"`
	Baseline  Baseline       `json:"baseline"`
	Results   []Result       `json:"results"` // in enumeration order
	Complete  bool           `json:"complete"`
}

// Baseline is the judge on the unmutated tree, which must pass.
type Baseline struct {
	Build float64 `json:"build_s"`
	Run   float64 `json:"run_s"`
}

// loadRun reads a results file; a missing file is no error (nil, nil):
// the run starts afresh.
func loadRun(path string) (*Run, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Run
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

// save writes r to path atomically (a temporary file renamed over it).
func (r *Run) save(path string) error {
	if path == "" {
		return nil // -only without -results
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// reusable returns the earlier verdicts of prev that still hold: same
// judge, same mutant (ID and diff), a verdict rather than an error.
func reusable(prev *Run, judgeKey string) (map[string]Result, error) {
	out := map[string]Result{}
	if prev == nil {
		return out, nil
	}
	if prev.JudgeKey != judgeKey {
		return nil, fmt.Errorf("the results to resume were judged by %q, this run's judge is %q: resume with the same flags, or start another results file", prev.JudgeKey, judgeKey)
	}
	for _, r := range prev.Results {
		if r.Status != Errored && r.Status != Pending {
			out[r.ID] = r
		}
	}
	return out, nil
}
