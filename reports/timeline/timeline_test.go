package timeline

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// cases are real artifacts of failing runs (shrunk), each with the
// violation its property printed.
var cases = []struct {
	name      string
	violation string
}{
	// force_pause at +2m30s is lost in the crash at +4m; the window is
	// 19:01-19:02 New York.
	{"pause10_restore_overrides", `sj.g[0]/work @2024-01-01T00:04:10Z (2023-12-31 19:04:10 EST America/New_York): stored pause state = "scheduled_pause", want "force_pause"`},
	// UpdateAlloc failures (rpc_failure), a pause call that fails, two
	// groups sharing task names, a group of two allocs.
	{"sync5_converges_after_healing", ""},
	// A sync loop sending every tick, driver start delays, UpdateAlloc
	// failures; two allocs of one group no call names.
	{"sync5_spaced_without_urgent", ""},
	// The 01:00 window on a fall-back night in New York.
	{"sched6_dst_transitions", ""},
	// A run of 200 ms inside a Sao Paulo window.
	{"sched5_inside_windows_only", "sj.g[0]/work @2024-12-12T00:16:00.2Z (21:16:00.2 -03 America/Sao_Paulo): paused = true, want false"},
}

func load(t *testing.T, name, violation string) *Timeline {
	t.Helper()
	tl, err := Load(filepath.Join("testdata", name+".trace.jsonl"), filepath.Join("testdata", name+".scenario.json"))
	must.NoError(t, err)
	if at, ok := ViolationAt(violation); ok {
		tl.Mark(at, violation)
	}
	return tl
}

// golden compares got with testdata/file, rewriting it under -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		must.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	must.NoError(t, err, must.Sprint("run go test ./reports/timeline -update to write it"))
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-golden +got; go test ./reports/timeline -update rewrites it):\n%s", path, diff)
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tl := load(t, tc.name, tc.violation)
			var text, svg bytes.Buffer
			must.NoError(t, tl.WriteText(&text))
			must.NoError(t, tl.WriteSVG(&svg))
			golden(t, tc.name+".txt", text.Bytes())
			golden(t, tc.name+".svg", svg.Bytes())

			again := load(t, tc.name, tc.violation)
			var text2, svg2 bytes.Buffer
			must.NoError(t, again.WriteText(&text2))
			must.NoError(t, again.WriteSVG(&svg2))
			must.Eq(t, text.String(), text2.String(), must.Sprint("the text timeline is a pure function of the artifacts"))
			must.Eq(t, svg.String(), svg2.String(), must.Sprint("the SVG is a pure function of the artifacts"))
		})
	}
}

// svgStats parses an SVG as XML and counts its elements by class.
func svgStats(t *testing.T, b []byte) map[string]int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	counts := map[string]int{}
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		must.NoError(t, err, must.Sprint("the SVG is well-formed XML"))
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = el.Name.Local
			must.Eq(t, "http://www.w3.org/2000/svg", el.Name.Space)
		}
		must.NotEq(t, "script", el.Name.Local, must.Sprint("no scripts"))
		for _, a := range el.Attr {
			must.NotEq(t, "href", a.Name.Local, must.Sprint("no external references"))
			if a.Name.Local == "class" {
				for _, c := range strings.Fields(a.Value) {
					counts[c]++
				}
			}
		}
	}
	must.Eq(t, "svg", root)
	return counts
}

func TestSVG(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			must.NoError(t, load(t, tc.name, tc.violation).WriteSVG(&b))
			counts := svgStats(t, b.Bytes())
			must.Positive(t, counts["state"], must.Sprint("at least one state bar"))
			must.Positive(t, counts["event"])
			if tc.violation != "" {
				must.Eq(t, 1, counts["violation"])
			}
		})
	}
	var b bytes.Buffer
	must.NoError(t, load(t, "pause10_restore_overrides", "").WriteSVG(&b))
	counts := svgStats(t, b.Bytes())
	must.Eq(t, 1, counts["pause"], must.Sprint("the force_pause call"))
	must.Eq(t, 1, counts["crash"])
	must.Eq(t, 1, counts["restart"])
	must.Eq(t, 1, counts["window"], must.Sprint("the 19:01 window"))
	must.Eq(t, 4, counts["rpc-send"], must.Sprint("four UpdateAlloc sends"))
	must.Eq(t, 0, counts["violation"])
	must.StrContains(t, b.String(), "19:01–19:02 EST", must.Sprint("the window in the task's zone"))
}

// TestModel checks what Build made of the PAUSE-10 and SYNC-5 runs.
func TestModel(t *testing.T) {
	tl := load(t, "pause10_restore_overrides", "")
	must.Eq(t, "pause-forgets-override", tl.Runner)
	must.Eq(t, time.Date(2024, 1, 1, 0, 4, 10, 0, time.UTC), tl.End)
	must.Len(t, 1, tl.Lanes)
	l := tl.Lanes[0]
	must.Eq(t, "sj.g[0]/work", l.Name())
	must.Eq(t, "America/New_York", l.Zone.String())
	must.Len(t, 1, l.Windows)
	must.True(t, l.Windows[0].Start.Equal(time.Date(2024, 1, 1, 0, 1, 0, 0, time.UTC)))
	must.True(t, l.Windows[0].Opens() && l.Windows[0].Closes())
	var paused []string
	for _, s := range l.States {
		paused = append(paused, s.State+"/"+s.Paused)
	}
	must.Eq(t, []string{"pending/scheduled_pause", "running/", "pending/scheduled_pause", "pending/force_pause", "pending/scheduled_pause"}, paused)
	must.Eq(t, []Call{{At: time.Date(2024, 1, 1, 0, 2, 30, 0, time.UTC), Op: "pause", State: "force_pause", seq: l.Calls[0].seq}}, l.Calls)

	tl = load(t, "sync5_converges_after_healing", "")
	var names []string
	for _, l := range tl.Lanes {
		names = append(names, l.Name())
	}
	must.Eq(t, []string{
		"job1.g1[0]/t1", "job1.g1[0]/t2", "job1.g1[0]/t3",
		"job1.g1[1]/t1", "job1.g1[1]/t2", "job1.g1[1]/t3",
		"job1.g2[0]/t1", "job1.g2[0]/t2",
	}, names, must.Sprint("groups from the tasks, g1[1] from the pause call, g1[0] by elimination"))
	must.Eq(t, "pause", tl.Lanes[5].Calls[0].Op)
	must.StrContains(t, tl.Lanes[5].Calls[0].Error, "has no schedule")
	must.Positive(t, len(tl.Lanes[7].Windows), must.Sprint("g2's t2 is scheduled"))
	must.Len(t, 0, tl.Lanes[6].Windows)
}

func TestViolationRecord(t *testing.T) {
	sc, err := scenario.Load(filepath.Join("testdata", "sched5_inside_windows_only.scenario.json"))
	must.NoError(t, err)
	f, err := os.Open(filepath.Join("testdata", "sched5_inside_windows_only.trace.jsonl"))
	must.NoError(t, err)
	defer f.Close()
	records, err := trace.Read(f)
	must.NoError(t, err)
	at := records[len(records)-1].At
	records = append(records, trace.Record{At: at, Kind: trace.KindViolation, Msg: "runner panicked"})
	tl, err := Build(records, sc)
	must.NoError(t, err)
	must.Eq(t, []Mark{{At: at, Kind: MarkViolation, Label: "runner panicked", seq: len(records) - 1}}, tl.Marks)
	var b bytes.Buffer
	must.NoError(t, tl.WriteText(&b))
	must.RegexMatch(t, regexp.MustCompile(`(?m) VIOLATION +runner panicked$`), b.String())
}

func TestViolationAt(t *testing.T) {
	at, ok := ViolationAt(cases[0].violation)
	must.True(t, ok)
	must.Eq(t, time.Date(2024, 1, 1, 0, 4, 10, 0, time.UTC), at)
	at, ok = ViolationAt("x @2024-12-12T00:16:00.2Z: y")
	must.True(t, ok)
	must.Eq(t, 200*time.Millisecond, at.Sub(time.Date(2024, 12, 12, 0, 16, 0, 0, time.UTC)))
	_, ok = ViolationAt("checker panicked")
	must.False(t, ok)
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	must.NoError(t, os.WriteFile(bad, []byte("{not json\n"), 0o644))
	badScenario := filepath.Join(dir, "bad.json")
	must.NoError(t, os.WriteFile(badScenario, []byte(`{"Name":"x"}`), 0o644))
	tracePath := filepath.Join("testdata", "pause10_restore_overrides.trace.jsonl")
	sc := filepath.Join("testdata", "pause10_restore_overrides.scenario.json")
	for _, tc := range []struct {
		name, trace, scenario, want string
	}{
		{"missing trace", filepath.Join(dir, "nope.jsonl"), sc, "load timeline: open"},
		{"bad trace", bad, sc, "trace line 1"},
		{"missing scenario", tracePath, filepath.Join(dir, "nope.json"), "load scenario: open"},
		{"bad scenario", tracePath, badScenario, "duration must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := Load(tc.trace, tc.scenario)
			must.Nil(t, tl)
			must.ErrorContains(t, err, tc.want)
		})
	}
	_, err := Build(nil, scenario.Scenario{})
	must.ErrorContains(t, err, "no trace records")
	_, err = Build([]trace.Record{{At: time.Unix(0, 0)}}, scenario.Scenario{LocalZone: "Nowhere/Atlantis"})
	must.ErrorContains(t, err, "local zone")
}

// TestRobust builds timelines of odd traces: no scenario jobs, records
// about unknown allocs, undecodable data, a schedule that cannot be
// evaluated; none fails or panics, and both renderings work.
func TestRobust(t *testing.T) {
	at := time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)
	records := []trace.Record{
		{At: at, Kind: trace.KindWorld, Msg: "start", Data: []byte(`"not an object"`)},
		{At: at, Kind: trace.KindTask, Alloc: "0123456789", Task: "t", Msg: "running", Data: []byte(`{`)},
		{At: at, Kind: trace.KindRPC, Op: "Node.UpdateAlloc", Msg: "send", Data: []byte(`[]`)},
		{At: at.Add(time.Second), Kind: trace.KindAPI, Alloc: "0123456789", Op: "signal", Msg: "ok"},
		{At: at.Add(time.Second), Kind: trace.KindFault, Op: "rpc_partition", Msg: "fire"},
		{At: at.Add(2 * time.Second), Kind: trace.KindWorld, Msg: trace.MsgClientCrash},
		{At: at.Add(2 * time.Second), Kind: "unknown"},
	}
	tl, err := Build(records, scenario.Scenario{Name: "odd", Start: at})
	must.NoError(t, err)
	must.Len(t, 1, tl.Lanes)
	must.Eq(t, "01234567/t", tl.Lanes[0].Name())
	must.Len(t, 1, tl.Lanes[0].Calls, must.Sprint("a signal of every task reaches the lane"))
	var text, svg bytes.Buffer
	must.NoError(t, tl.WriteText(&text))
	must.NoError(t, tl.WriteSVG(&svg))
	must.Positive(t, svgStats(t, svg.Bytes())["crash"])
	must.StrContains(t, text.String(), "fault      rpc_partition: fire")
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	tl := load(t, "sched5_inside_windows_only", "")
	must.ErrorContains(t, tl.WriteSVG(failingWriter{}), "disk full")
	must.ErrorContains(t, tl.WriteText(failingWriter{}), "disk full")
}

func TestAllocNames(t *testing.T) {
	for _, tc := range []struct {
		name, job, group string
		index            int
		ok               bool
	}{
		{"sj.g[0]", "sj", "g", 0, true},
		{"web.v2.api[12]", "web.v2", "api", 12, true},
		{"sj.g", "", "", 0, false},
		{"sj[0]", "", "", 0, false},
		{"sj.g[-1]", "", "", 0, false},
		{"sj.g[x]", "", "", 0, false},
	} {
		job, group, index, ok := parseAllocName(tc.name)
		must.Eq(t, tc.ok, ok, must.Sprint(tc.name))
		if ok {
			must.Eq(t, []any{tc.job, tc.group, tc.index}, []any{job, group, index}, must.Sprint(tc.name))
		}
	}
	id := "8c1f9553-77eb-08fc-a2cf-68b3d50efd79"
	must.Eq(t, "8c1f9553", allocName(&allocInfo{id: id, index: -1}))
	must.Eq(t, "job1.8c1f9553", allocName(&allocInfo{id: id, job: "job1", index: -1}))
	must.Eq(t, "job1.g1[?8c1f9553]", allocName(&allocInfo{id: id, job: "job1", group: "g1", index: -1}))
	must.Eq(t, "job1.g1[1]", allocName(&allocInfo{id: id, job: "job1", group: "g1", index: 1}))

	tl := load(t, "sync5_spaced_without_urgent", "")
	var names []string
	for _, l := range tl.Lanes {
		names = append(names, l.Name())
	}
	must.Eq(t, []string{"busy.g1[0]/t1", "busy.g1[0]/t2", "job1.g1[?06837145]/t1", "job1.g1[?3c9a0e34]/t1"}, names,
		must.Sprint("no call names either alloc of job1.g1, so each keeps its short ID"))
}
