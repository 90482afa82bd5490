package trace

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
)

// Sink receives records; *Recorder is the world's.
type Sink interface {
	Emit(r Record)
}

// Discard is a Sink that drops everything.
type Discard struct{}

// Emit drops r.
func (Discard) Emit(Record) {}

// Recorder collects a run's records. Emit is safe for concurrent use;
// Flush, which orders what was emitted since the last Flush and appends it
// to the trace, is called by the world between instants.
type Recorder struct {
	mu      sync.Mutex
	keep    bool
	sealed  bool
	seq     uint64
	pending []pendingRecord
	records []Record
	count   int
}

type pendingRecord struct {
	Record
	seq  uint64
	rank int // Kind.rank, looked up once (Flush compares it often)
}

var _ Sink = (*Recorder)(nil)

// NewRecorder returns an empty recorder. keep=false counts records
// without storing them (long benchmarks).
func NewRecorder(keep bool) *Recorder { return &Recorder{keep: keep} }

// Keeps reports whether r stores records (NewRecorder's keep): a
// recorder that only counts them ignores what they carry.
func (r *Recorder) Keeps() bool { return r.keep }

// Emit queues r until the next Flush; after Seal it drops r.
func (r *Recorder) Emit(rec Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sealed {
		return
	}
	r.seq++
	r.count++
	if r.keep {
		r.pending = append(r.pending, pendingRecord{Record: rec, seq: r.seq, rank: rec.Kind.rank()})
	}
}

// Flush orders the queued records by (At, Kind, Alloc, Task, Op, arrival)
// and appends them to the trace.
func (r *Recorder) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return
	}
	slices.SortFunc(r.pending, func(a, b pendingRecord) int {
		return cmp.Or(
			a.At.Compare(b.At),
			cmp.Compare(a.rank, b.rank),
			cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Alloc, b.Alloc),
			cmp.Compare(a.Task, b.Task),
			cmp.Compare(a.Op, b.Op),
			cmp.Compare(a.seq, b.seq),
		)
	})
	for _, p := range r.pending {
		r.records = append(r.records, p.Record)
	}
	r.pending = r.pending[:0]
}

// Seal flushes and ends the trace: later Emits are dropped (what a run
// does while it is being torn down is not part of it).
func (r *Recorder) Seal() {
	r.Flush()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sealed = true
}

// Append adds rec at the end of the trace at once, sealed or not (for
// harness violations found while tearing a run down).
func (r *Recorder) Append(rec Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count++
	if r.keep {
		r.records = append(r.records, rec)
	}
}

// Len is the number of records emitted so far, kept or not.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count
}

// Records returns the flushed records.
func (r *Recorder) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.records)
}

// From returns the flushed records from index i on (none if i is past
// the end), so that a reader following a run reads each record once. It
// copies nothing: the slice is the trace's own, capped at its length
// (flushed records are never changed, only appended to), so read it, do
// not change it.
func (r *Recorder) From(i int) []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.records)
	if i >= n {
		return nil
	}
	return r.records[max(i, 0):n:n]
}

// Tail returns the last n flushed records as trace lines.
func (r *Recorder) Tail(n int) []string {
	recs := r.Records()
	if len(recs) > n {
		recs = recs[len(recs)-n:]
	}
	out := make([]string, len(recs))
	for i, rec := range recs {
		out[i] = rec.String()
	}
	return out
}

// WriteTo writes the flushed records as JSON lines.
func (r *Recorder) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var n int64
	for _, rec := range r.Records() {
		b, err := rec.MarshalJSON()
		if err != nil {
			return n, fmt.Errorf("encode trace record: %w", err)
		}
		m, err := bw.Write(append(b, '\n'))
		n += int64(m)
		if err != nil {
			return n, fmt.Errorf("write trace: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("write trace: %w", err)
	}
	return n, nil
}

// WriteFile writes the flushed records to path (0644), replacing it.
func (r *Recorder) WriteFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create trace file: %w", err)
	}
	if _, err := r.WriteTo(f); err != nil {
		_ = f.Close()
		return fmt.Errorf("trace file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close trace file %s: %w", path, err)
	}
	return nil
}

// Read parses a trace written by WriteTo.
func Read(rd io.Reader) ([]Record, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	var out []Record
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec Record
		if err := rec.UnmarshalJSON(sc.Bytes()); err != nil {
			return nil, fmt.Errorf("trace line %d: %w", len(out)+1, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	return out, nil
}
