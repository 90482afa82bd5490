package sweepcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/reports"
)

// summaryFormat names the summary file's format and version.
const summaryFormat = "allocsim-sweep/1"

// Property statuses in a summary.
const (
	statusSearching = "searching" // seeds of its range are still unchecked
	statusPassed    = "passed"    // every seed of its range checked, none failed
	statusFailed    = "failed"    // a seed failed: not searched further (in that shard)
	statusNA        = "n/a"       // not in the runner's profile: never checked
)

// summaryFile is the JSON summary of a sweep (package doc): what one
// shard covered so far, or, merged (Shard nil), what several did.
type summaryFile struct {
	Format  string `json:"format"`
	Runner  string `json:"runner"`
	Profile string `json:"profile"`
	// Seeds is the whole sweep's range; Shard and ShardSeeds the shard's
	// slice of it (both nil in a merged summary, whose range is Seeds).
	Seeds      Range  `json:"seeds"`
	Shard      *Shard `json:"shard,omitempty"`
	ShardSeeds *Range `json:"shard_seeds,omitempty"`
	// Merged lists the shards a merged summary combines.
	Merged []Shard `json:"merged_shards,omitempty"`
	// Selection is --property as given (sorted, distinct); empty: every
	// property of the profile.
	Selection []string `json:"selection"`
	// Chunk is the chunk size last used (informational).
	Chunk      uint64          `json:"chunk,omitempty"`
	Properties []propertyState `json:"properties"`
	Failures   []failure       `json:"failures"`
	// Covered and Gaps split the file's range: a seed is covered when
	// every property checked it or stopped before it (it failed in a
	// shard holding the seed). Recomputed on every write.
	Covered Set    `json:"covered"`
	Gaps    Set    `json:"gaps"`
	Totals  totals `json:"totals"`
}

// propertyState is one property's progress.
type propertyState struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	// Checked are the seeds it ran (passing, or its failing seed);
	// Stopped the seeds it skips because it failed in their shard.
	Checked Set `json:"checked"`
	Stopped Set `json:"stopped,omitempty"`
	// Checks is how many scenarios ran.
	Checks uint64 `json:"checks"`
	// Situations counts, per situation of the property's catalogue, the
	// checks that reached it, summed over chunks and shards.
	Situations []reports.Situation `json:"situations,omitempty"`
}

// addSituations adds counts to p's, situation by situation.
func (p *propertyState) addSituations(counts []reports.Situation) {
	for _, c := range counts {
		i := slices.IndexFunc(p.Situations, func(s reports.Situation) bool { return s.Name == c.Name })
		if i < 0 {
			p.Situations = append(p.Situations, c)
			continue
		}
		p.Situations[i].Runs += c.Runs
	}
}

// never lists, as "<property>: <situation>", every situation of the
// checked properties that no check reached: a check that cannot fire
// over the sweep's seeds, a failure of the suite.
func (f *summaryFile) never() []string {
	var out []string
	for _, p := range f.Properties {
		for _, s := range p.Situations {
			if s.Runs == 0 {
				out = append(out, p.ID+": "+s.Name)
			}
		}
	}
	return out
}

// failure is a failing seed, with the command that replays it.
type failure struct {
	Property  string `json:"property"`
	Seed      uint64 `json:"seed"`
	Shard     string `json:"shard,omitempty"`
	Violation string `json:"violation"`
	Replay    string `json:"replay"`
}

// totals are the file's counts, recomputed on every write.
type totals struct {
	Seeds      uint64 `json:"seeds"`
	Covered    uint64 `json:"covered"`
	Properties int    `json:"properties"`
	Searching  int    `json:"searching"`
	Passed     int    `json:"passed"`
	Failed     int    `json:"failed"`
	NA         int    `json:"not_applicable"`
	Failures   int    `json:"failures"`
	Checks     uint64 `json:"checks"`
	// Chunks counts the suite runs (batches: some properties over one
	// chunk's seeds) that completed; the name is the format's.
	Chunks int `json:"chunks"`
}

// MarshalJSON writes an empty Set as [] rather than null.
func (s Set) MarshalJSON() ([]byte, error) {
	if s == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Range(s))
}

// identity is what makes two summaries parts of one sweep.
type identity struct {
	Runner, Profile string
	Seeds           Range
	Selection       []string
}

func (f *summaryFile) identity() identity {
	return identity{Runner: f.Runner, Profile: f.Profile, Seeds: f.Seeds, Selection: f.Selection}
}

// mismatch says how f differs from the sweep id describes (empty: it
// does not).
func (f *summaryFile) mismatch(id identity) string {
	switch {
	case f.Runner != id.Runner:
		return fmt.Sprintf("runner %s, not %s", f.Runner, id.Runner)
	case f.Profile != id.Profile:
		return fmt.Sprintf("profile %s, not %s", f.Profile, id.Profile)
	case f.Seeds != id.Seeds:
		return fmt.Sprintf("seeds %s, not %s", f.Seeds, id.Seeds)
	case !slices.Equal(f.Selection, id.Selection):
		return fmt.Sprintf("properties %s, not %s", selectionText(f.Selection), selectionText(id.Selection))
	}
	return ""
}

func selectionText(sel []string) string {
	if len(sel) == 0 {
		return "(all)"
	}
	return strings.Join(sel, ",")
}

// scope is the seeds the file is about: its shard's, or the sweep's.
func (f *summaryFile) scope() Range {
	if f.ShardSeeds != nil {
		return *f.ShardSeeds
	}
	return f.Seeds
}

// property returns id's state, adding it if new.
func (f *summaryFile) property(id string) *propertyState {
	for i := range f.Properties {
		if f.Properties[i].ID == id {
			return &f.Properties[i]
		}
	}
	f.Properties = append(f.Properties, propertyState{ID: id, Status: statusSearching})
	return &f.Properties[len(f.Properties)-1]
}

// failed reports whether a failure of property id is recorded.
func (f *summaryFile) failed(id string) bool {
	return slices.ContainsFunc(f.Failures, func(x failure) bool { return x.Property == id })
}

// addFailure records x unless its (property, seed) is known; it reports
// whether it was new.
func (f *summaryFile) addFailure(x failure) bool {
	if slices.ContainsFunc(f.Failures, func(y failure) bool { return y.Property == x.Property && y.Seed == x.Seed }) {
		return false
	}
	f.Failures = append(f.Failures, x)
	return true
}

// refresh recomputes the derived fields: statuses, order, coverage and
// totals (Chunks is kept).
func (f *summaryFile) refresh() {
	scope := f.scope()
	slices.SortFunc(f.Properties, func(a, b propertyState) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(f.Failures, func(a, b failure) int {
		if c := strings.Compare(a.Property, b.Property); c != 0 {
			return c
		}
		switch {
		case a.Seed < b.Seed:
			return -1
		case a.Seed > b.Seed:
			return 1
		}
		return strings.Compare(a.Shard, b.Shard)
	})
	t := totals{Seeds: scope.Len(), Chunks: f.Totals.Chunks, Failures: len(f.Failures), Properties: len(f.Properties)}
	covered := Set{scope}
	for i := range f.Properties {
		p := &f.Properties[i]
		p.Checked = normalize(p.Checked)
		p.Stopped = normalize(p.Stopped)
		t.Checks += p.Checks
		switch {
		case p.Status == statusNA:
			t.NA++
			continue
		case f.failed(p.ID):
			p.Status = statusFailed
			t.Failed++
		case len(without(scope, p.Checked)) == 0:
			p.Status = statusPassed
			t.Passed++
		default:
			p.Status = statusSearching
			t.Searching++
		}
		covered = intersect(covered, union(p.Checked, p.Stopped))
	}
	if len(f.Properties) == 0 {
		covered = nil // nothing is known to have run
	}
	f.Covered = intersect(covered, Set{scope})
	f.Gaps = without(scope, f.Covered)
	t.Covered = f.Covered.Len()
	f.Totals = t
	if f.Selection == nil {
		f.Selection = []string{}
	}
	if f.Failures == nil {
		f.Failures = []failure{}
	}
	if f.Properties == nil {
		f.Properties = []propertyState{}
	}
}

// check validates a decoded summary.
func (f *summaryFile) check() error {
	if f.Format != summaryFormat {
		return fmt.Errorf("format %q, want %q", f.Format, summaryFormat)
	}
	if f.Runner == "" || f.Seeds.From == 0 || f.Seeds.To < f.Seeds.From {
		return errors.New("no runner or no seed range")
	}
	if (f.Shard == nil) != (f.ShardSeeds == nil) {
		return errors.New("shard and shard_seeds must be set together")
	}
	if f.Shard != nil {
		want, err := shardRange(f.Seeds, *f.Shard)
		if err != nil || *f.ShardSeeds != want {
			return fmt.Errorf("shard %s of %s is not seeds %s", f.Shard, f.Seeds, f.ShardSeeds)
		}
	}
	for _, p := range f.Properties {
		for _, r := range append(slices.Clone(p.Checked), p.Stopped...) {
			if r.From == 0 || r.To < r.From {
				return fmt.Errorf("property %s: bad range %d..%d", p.ID, r.From, r.To)
			}
		}
	}
	return nil
}

// loadSummary reads and checks a summary file; it is refreshed.
func loadSummary(path string) (*summaryFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f summaryFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not a sweep summary: %w", path, err)
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("%s: not a sweep summary: %w", path, err)
	}
	f.refresh()
	return &f, nil
}

// writeSummary refreshes f and writes it to path atomically: a
// temporary file in the same directory, synced, then renamed over path.
func writeSummary(path string, f *summaryFile) error {
	f.refresh()
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode summary: %w", err)
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write summary %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write summary %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write summary %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write summary %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write summary %s: %w", path, err)
	}
	done = true
	return nil
}
