package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)

func rec(at time.Duration, kind Kind, alloc, task, op, msg string) Record {
	return Record{At: t0.Add(at), Kind: kind, Alloc: alloc, Task: task, Op: op, Msg: msg}
}

// TestFlushOrder: an instant's records sort by (At, Kind rank, Alloc,
// Task, Op) and keep arrival order within one stream (DET-2).
func TestFlushOrder(t *testing.T) {
	r := NewRecorder(true)
	in := []Record{
		rec(time.Second, KindRPC, "", "", "Node.UpdateAlloc", "send"),
		rec(0, KindDriver, "b", "t1", "StartTask", "ok"),
		rec(0, KindDriver, "a", "t2", "StartTask", "ok"),
		rec(0, KindDriver, "a", "t1", "WaitTask", "first"),
		rec(0, KindDriver, "a", "t1", "WaitTask", "second"),
		rec(0, KindWorld, "", "", "", "start"),
		rec(0, Kind("zz_custom"), "", "", "", "unknown kinds last"),
	}
	for _, x := range in {
		r.Emit(x)
	}
	r.Flush()
	var got []string
	for _, x := range r.Records() {
		got = append(got, string(x.Kind)+" "+x.Alloc+"/"+x.Task+" "+x.Op+" "+x.Msg)
	}
	want := []string{
		"world /  start",
		"driver a/t1 WaitTask first",
		"driver a/t1 WaitTask second",
		"driver a/t2 StartTask ok",
		"driver b/t1 StartTask ok",
		"zz_custom /  unknown kinds last",
		"rpc / Node.UpdateAlloc send",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Flush order (-want +got):\n%s", diff)
	}
}

// TestFlushIndependentOfEmitters: concurrent emitters of distinct streams
// give the same trace whatever their interleaving.
func TestFlushIndependentOfEmitters(t *testing.T) {
	run := func() []byte {
		r := NewRecorder(true)
		var wg sync.WaitGroup
		for _, task := range []string{"t1", "t2", "t3", "t4"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, op := range []string{"StartTask", "WaitTask", "StopTask"} {
					r.Emit(rec(0, KindDriver, "a", task, op, "ok"))
				}
			}()
		}
		wg.Wait()
		r.Flush()
		var buf bytes.Buffer
		_, err := r.WriteTo(&buf)
		must.NoError(t, err)
		return buf.Bytes()
	}
	first := run()
	for i := 0; i < 20; i++ {
		must.Eq(t, string(first), string(run()))
	}
}

// TestLineFormat: one JSON line per record, UTC time, empty fields
// omitted; Read parses it back.
func TestLineFormat(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	must.NoError(t, err)
	r := NewRecorder(true)
	r.Emit(Record{At: t0.In(ny).Add(1500 * time.Millisecond), Kind: KindRPC, Op: "Node.UpdateAlloc", Msg: "send",
		Data: Encode(map[string]int{"b": 2, "a": 1})})
	r.Emit(Record{At: t0, Kind: KindWorld, Msg: "start"})
	r.Flush()
	var buf bytes.Buffer
	_, err = r.WriteTo(&buf)
	must.NoError(t, err)
	want := `{"t":"2024-03-10T06:00:00Z","kind":"world","msg":"start"}
{"t":"2024-03-10T06:00:01.5Z","kind":"rpc","op":"Node.UpdateAlloc","msg":"send","data":{"a":1,"b":2}}
`
	must.Eq(t, want, buf.String())
	back, err := Read(strings.NewReader(buf.String() + "\n"))
	must.NoError(t, err)
	must.SliceLen(t, 2, back)
	must.True(t, back[1].At.Equal(t0.Add(1500*time.Millisecond)))
	must.Eq(t, `{"a":1,"b":2}`, string(back[1].Data))
	must.Eq(t, `{"t":"2024-03-10T06:00:00Z","kind":"world","msg":"start"}`, back[0].String())

	_, err = Read(strings.NewReader("{not json\n"))
	must.ErrorContains(t, err, "trace line 1")
	_, err = Read(strings.NewReader(`{"t":"yesterday","kind":"world"}` + "\n"))
	must.ErrorContains(t, err, "time")
}

// TestEncodeNeverFails: an unencodable value is recorded as its error.
func TestEncodeNeverFails(t *testing.T) {
	must.Nil(t, Encode(nil))
	got := string(Encode(map[string]any{"ch": make(chan int)}))
	must.StrContains(t, got, "encode_error")
}

func TestSealAppendTailWriteFile(t *testing.T) {
	r := NewRecorder(true)
	for i := 0; i < 5; i++ {
		r.Emit(rec(time.Duration(i)*time.Second, KindWorld, "", "", "", "m"))
	}
	r.Seal()
	r.Emit(rec(time.Hour, KindWorld, "", "", "", "dropped after seal"))
	r.Flush()
	r.Append(rec(time.Hour, KindViolation, "", "", "", "leak"))
	must.EqOp(t, 6, r.Len())
	tail := r.Tail(2)
	must.SliceLen(t, 2, tail)
	must.StrContains(t, tail[1], `"violation"`)
	must.SliceLen(t, 6, r.Tail(100))

	path := filepath.Join(t.TempDir(), "trace.jsonl")
	must.NoError(t, r.WriteFile(path))
	b, err := os.ReadFile(path)
	must.NoError(t, err)
	must.EqOp(t, 6, strings.Count(string(b), "\n"))
	must.Error(t, r.WriteFile(filepath.Join(t.TempDir(), "missing", "dir", "x")))
}

// TestDiscardCounts: a recorder that does not keep still counts.
func TestDiscardCounts(t *testing.T) {
	r := NewRecorder(false)
	r.Emit(rec(0, KindWorld, "", "", "", "x"))
	r.Flush()
	must.EqOp(t, 1, r.Len())
	must.SliceEmpty(t, r.Records())
	Discard{}.Emit(rec(0, KindWorld, "", "", "", "x"))
}
