package syncpolicy

import (
	"time"

	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// upd is an update of alloc id whose ClientDescription carries a version,
// so tests can tell which state of an alloc is where.
func upd(id, version string) *structs.Allocation {
	return &structs.Allocation{
		ID: id, NodeID: "n1", Namespace: "default", JobID: "job", Job: &structs.Job{ID: "job"},
		ClientStatus: structs.AllocClientStatusRunning, ClientDescription: version,
		ModifyIndex: 4,
	}
}

func batchVersions(b Batch) []string {
	var out []string
	for _, a := range b.Allocs() {
		out = append(out, a.ID+"@"+a.ClientDescription)
	}
	return out
}

// runner classifies with a runner at the given priority.
func classes(m map[string]Priority) Classifier {
	cm := make(map[string]Class, len(m))
	for id, p := range m {
		cm[id] = Class{Priority: p, HasRunner: true}
	}
	return ClassifyMap(cm)
}

// TestSYNC3_TickSteps checks each SYNC-3 step of Tick in isolation.
func TestSYNC3_TickSteps(t *testing.T) {
	cases := []struct {
		name      string
		priorN    int      // empty ticks before the adds, to position n
		adds      []string // alloc IDs added, version "v1"
		contacted bool
		classify  Classifier
		wantAct   Action
		wantWhy   Reason
		wantN     uint64
		wantBatch []string // ID@version, sorted
		wantLeft  int      // buffer length after the tick
	}{
		{name: "empty buffer holds", contacted: true,
			wantAct: Hold, wantWhy: ReasonEmpty, wantN: 1},
		{name: "servers not contacted holds, buffer untouched", adds: []string{"a"}, priorN: 4,
			classify: classes(map[string]Priority{"a": Urgent}),
			wantAct:  Hold, wantWhy: ReasonNotContacted, wantN: 5, wantLeft: 1},
		{name: "typical on tick 1 holds, buffer untouched", adds: []string{"a", "b"}, contacted: true,
			classify: classes(map[string]Priority{"a": Typical, "b": Typical}),
			wantAct:  Hold, wantWhy: ReasonNotDue, wantN: 1, wantLeft: 2},
		{name: "urgent on tick 1 sends everything not none, sorted", adds: []string{"c", "a", "b", "d"}, contacted: true,
			classify: classes(map[string]Priority{"a": Typical, "b": Urgent, "c": Typical, "d": None}),
			wantAct:  Send, wantWhy: ReasonUrgent, wantN: 1, wantBatch: []string{"a@v1", "b@v1", "c@v1"}},
		{name: "urgent on tick 3 sends", priorN: 2, adds: []string{"a"}, contacted: true,
			classify: classes(map[string]Priority{"a": Urgent}),
			wantAct:  Send, wantWhy: ReasonUrgent, wantN: 3, wantBatch: []string{"a@v1"}},
		{name: "typical on tick 5 sends", priorN: 4, adds: []string{"b", "a"}, contacted: true,
			classify: classes(map[string]Priority{"a": Typical, "b": Typical}),
			wantAct:  Send, wantWhy: ReasonDue, wantN: 5, wantBatch: []string{"a@v1", "b@v1"}},
		{name: "urgent on tick 5 is a due send", priorN: 4, adds: []string{"a"}, contacted: true,
			classify: classes(map[string]Priority{"a": Urgent}),
			wantAct:  Send, wantWhy: ReasonDue, wantN: 5, wantBatch: []string{"a@v1"}},
		{name: "typical on tick 10 sends", priorN: 9, adds: []string{"a"}, contacted: true,
			classify: classes(map[string]Priority{"a": Typical}),
			wantAct:  Send, wantWhy: ReasonDue, wantN: 10, wantBatch: []string{"a@v1"}},
		{name: "only none on tick 5 clears and rephases", priorN: 4, adds: []string{"a", "b"}, contacted: true,
			classify: classes(map[string]Priority{"a": None, "b": None}),
			wantAct:  Rephase, wantWhy: ReasonDue, wantN: 5},
		{name: "none dropped from a due batch", priorN: 4, adds: []string{"a", "b"}, contacted: true,
			classify: classes(map[string]Priority{"a": None, "b": Typical}),
			wantAct:  Send, wantWhy: ReasonDue, wantN: 5, wantBatch: []string{"b@v1"}},
		{name: "only none on tick 1 holds", adds: []string{"a"}, contacted: true,
			classify: classes(map[string]Priority{"a": None}),
			wantAct:  Hold, wantWhy: ReasonNotDue, wantN: 1, wantLeft: 1},
		{name: "no runner is never urgent", adds: []string{"a"}, contacted: true,
			classify: func(*structs.Allocation) (Priority, bool) { return Urgent, false },
			wantAct:  Hold, wantWhy: ReasonNotDue, wantN: 1, wantLeft: 1},
		{name: "no runner is included even if classified none", priorN: 4, adds: []string{"a"}, contacted: true,
			classify: func(*structs.Allocation) (Priority, bool) { return None, false },
			wantAct:  Send, wantWhy: ReasonDue, wantN: 5, wantBatch: []string{"a@v1"}},
		{name: "nil classifier: no runners, sent on tick 5", priorN: 4, adds: []string{"b", "a"}, contacted: true,
			wantAct: Send, wantWhy: ReasonDue, wantN: 5, wantBatch: []string{"a@v1", "b@v1"}},
		{name: "nil classifier: held on tick 1", adds: []string{"a"}, contacted: true,
			wantAct: Hold, wantWhy: ReasonNotDue, wantN: 1, wantLeft: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b Buffer
			for range tc.priorN {
				must.Eq(t, Hold, b.Tick(TickInput{ServersContacted: true}).Action)
			}
			for _, id := range tc.adds {
				b.Add(upd(id, "v1"))
			}
			res := b.Tick(TickInput{ServersContacted: tc.contacted, Classify: tc.classify})
			must.Eq(t, tc.wantAct, res.Action, must.Sprintf("action"))
			must.Eq(t, tc.wantWhy, res.Reason, must.Sprintf("reason %v", res.Reason))
			must.Eq(t, tc.wantN, res.N, must.Sprintf("N"))
			must.Eq(t, tc.wantN, b.N())
			if diff := cmp.Diff(tc.wantBatch, batchVersions(res.Batch)); diff != "" {
				t.Fatalf("batch (-want +got):\n%s", diff)
			}
			must.Eq(t, len(tc.wantBatch), res.Batch.Len())
			must.Eq(t, tc.wantLeft, b.Len(), must.Sprintf("buffer left"))
		})
	}
}

// TestSYNC3_BatchEntries checks the classification a batch carries.
func TestSYNC3_BatchEntries(t *testing.T) {
	var b Buffer
	b.Add(upd("b", "v1"))
	b.Add(upd("a", "v1"))
	b.Add(upd("c", "v1"))
	res := b.Tick(TickInput{ServersContacted: true, Classify: ClassifyMap(map[string]Class{
		"a": {Priority: Urgent, HasRunner: true},
		"b": {Priority: Urgent, HasRunner: false}, // no runner: typical
		// c missing: no runner
	})})
	must.Eq(t, Send, res.Action)
	must.True(t, res.Batch.Urgent())
	var got []Entry
	for _, e := range res.Batch.Entries() {
		got = append(got, Entry{Alloc: &structs.Allocation{ID: e.Alloc.ID}, Priority: e.Priority, HasRunner: e.HasRunner})
	}
	want := []Entry{
		{Alloc: &structs.Allocation{ID: "a"}, Priority: Urgent, HasRunner: true},
		{Alloc: &structs.Allocation{ID: "b"}, Priority: Typical},
		{Alloc: &structs.Allocation{ID: "c"}, Priority: Typical},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("entries (-want +got):\n%s", diff)
	}
	must.False(t, Batch{}.Urgent())
	must.Eq(t, 0, Batch{}.Len())
}

// TestSYNC3_ClassifyInIDOrder: the classifier is called in alloc ID order,
// so map order never leaks (DET-2).
func TestSYNC3_ClassifyInIDOrder(t *testing.T) {
	var b Buffer
	for _, id := range []string{"e", "b", "d", "a", "c", "f"} {
		b.Add(upd(id, "v1"))
	}
	var calls []string
	b.Tick(TickInput{ServersContacted: true, Classify: func(u *structs.Allocation) (Priority, bool) {
		calls = append(calls, u.ID)
		return Typical, true
	}})
	must.Eq(t, []string{"a", "b", "c", "d", "e", "f"}, calls)
}

// TestSYNC1_AddStripsCopiesNewestWins covers SYNC-1.
func TestSYNC1_AddStripsCopiesNewestWins(t *testing.T) {
	var b Buffer
	b.Add(nil)
	must.Eq(t, 0, b.Len())

	src := upd("a", "v1")
	src.TaskStates = map[string]*structs.TaskState{"web": structs.NewTaskState()}
	b.Add(src)
	src.ClientDescription = "mutated"
	src.TaskStates["web"].State = structs.TaskStateDead

	got, ok := b.Get("a")
	must.True(t, ok)
	want := &structs.Allocation{ID: "a", NodeID: "n1", ClientStatus: structs.AllocClientStatusRunning,
		ClientDescription: "v1", TaskStates: map[string]*structs.TaskState{"web": structs.NewTaskState()}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("stored update (-want +got):\n%s", diff)
	}
	got.ClientDescription = "mutated via Get"
	again, _ := b.Get("a")
	must.Eq(t, "v1", again.ClientDescription)

	b.Add(upd("a", "v2"))
	b.Add(upd("b", "v1"))
	must.Eq(t, 2, b.Len())
	latest, _ := b.Get("a")
	must.Eq(t, "v2", latest.ClientDescription)
	_, ok = b.Get("zzz")
	must.False(t, ok)
}

// TestSYNC3_Failed covers the re-insert rule and that n is kept.
func TestSYNC3_Failed(t *testing.T) {
	take := func(b *Buffer) Batch {
		t.Helper()
		res := b.Tick(TickInput{ServersContacted: true, Classify: classes(map[string]Priority{
			"a": Urgent, "b": Typical, "c": Typical,
		})})
		must.Eq(t, Send, res.Action)
		return res.Batch
	}
	t.Run("re-inserts when nothing newer arrived", func(t *testing.T) {
		var b Buffer
		b.Add(upd("a", "v1"))
		b.Add(upd("b", "v1"))
		batch := take(&b)
		must.Eq(t, 0, b.Len())
		b.Failed(batch)
		must.Eq(t, uint64(1), b.N())
		for _, id := range []string{"a", "b"} {
			got, ok := b.Get(id)
			must.True(t, ok)
			must.Eq(t, "v1", got.ClientDescription)
		}
	})
	t.Run("keeps a newer update that arrived in flight", func(t *testing.T) {
		var b Buffer
		b.Add(upd("a", "v1"))
		b.Add(upd("b", "v1"))
		batch := take(&b)
		b.Add(upd("a", "v2"))
		b.Add(upd("c", "v1"))
		b.Failed(batch)
		must.Eq(t, 3, b.Len())
		for id, want := range map[string]string{"a": "v2", "b": "v1", "c": "v1"} {
			got, _ := b.Get(id)
			must.Eq(t, want, got.ClientDescription, must.Sprintf("alloc %s", id))
		}
	})
	t.Run("an older failed batch never replaces a newer one", func(t *testing.T) {
		var b Buffer
		b.Add(upd("a", "v1"))
		older := take(&b)
		b.Add(upd("a", "v2"))
		newer := take(&b)
		b.Failed(newer)
		b.Failed(older)
		got, _ := b.Get("a")
		must.Eq(t, "v2", got.ClientDescription)
	})
	t.Run("mutating sent allocs does not change what is re-inserted", func(t *testing.T) {
		var b Buffer
		b.Add(upd("a", "v1"))
		batch := take(&b)
		for _, a := range batch.Allocs() {
			a.ClientDescription = "server stamped"
		}
		for _, e := range batch.Entries() {
			e.Alloc.ClientDescription = "server stamped"
		}
		b.Failed(batch)
		got, _ := b.Get("a")
		must.Eq(t, "v1", got.ClientDescription)
	})
	t.Run("into a fresh buffer", func(t *testing.T) {
		var src, dst Buffer
		src.Add(upd("a", "v1"))
		batch := take(&src)
		dst.Failed(batch)
		dst.Failed(Batch{})
		must.Eq(t, 1, dst.Len())
	})
	t.Run("n kept: the next typical send is still on a multiple of 5", func(t *testing.T) {
		var b Buffer
		b.Add(upd("a", "v1"))
		batch := take(&b) // urgent on tick 1
		b.Failed(batch)
		cls := classes(map[string]Priority{"a": Typical})
		for n := uint64(2); n <= 4; n++ {
			res := b.Tick(TickInput{ServersContacted: true, Classify: cls})
			must.Eq(t, Hold, res.Action, must.Sprintf("tick %d", n))
		}
		res := b.Tick(TickInput{ServersContacted: true, Classify: cls})
		must.Eq(t, Send, res.Action)
		must.Eq(t, uint64(5), res.N)
	})
}

// TestSYNC3_Succeeded: success sets n = 0, so the next typical send is five
// ticks later.
func TestSYNC3_Succeeded(t *testing.T) {
	var b Buffer
	cls := classes(map[string]Priority{"a": Urgent})
	b.Add(upd("a", "v1"))
	b.Tick(TickInput{})
	b.Tick(TickInput{})
	res := b.Tick(TickInput{ServersContacted: true, Classify: cls})
	must.Eq(t, Send, res.Action)
	must.Eq(t, uint64(3), res.N)
	b.Succeeded()
	must.Eq(t, uint64(0), b.N())
	b.Add(upd("a", "v2"))
	typical := classes(map[string]Priority{"a": Typical})
	for range 4 {
		must.Eq(t, Hold, b.Tick(TickInput{ServersContacted: true, Classify: typical}).Action)
	}
	res = b.Tick(TickInput{ServersContacted: true, Classify: typical})
	must.Eq(t, Send, res.Action)
	must.Eq(t, uint64(5), res.N)
}

// TestSYNC3_RephaseKeepsN documents the decision that a re-phase does not
// reset n (only success does).
func TestSYNC3_RephaseKeepsN(t *testing.T) {
	var b Buffer
	for range 4 {
		b.Tick(TickInput{})
	}
	b.Add(upd("a", "v1"))
	res := b.Tick(TickInput{ServersContacted: true, Classify: classes(map[string]Priority{"a": None})})
	must.Eq(t, Rephase, res.Action)
	must.Eq(t, uint64(5), b.N())
	must.Eq(t, 0, b.Len())
}

func TestSYNC3_Names(t *testing.T) {
	cases := []struct{ got, want string }{
		{Hold.String(), "hold"}, {Send.String(), "send"}, {Rephase.String(), "rephase"},
		{Action(9).String(), "action(9)"},
		{ReasonEmpty.String(), "buffer empty"},
		{ReasonNotContacted.String(), "servers not contacted"},
		{ReasonNotDue.String(), "not a full-sync tick and nothing urgent"},
		{ReasonUrgent.String(), "urgent update"},
		{ReasonDue.String(), "full-sync tick"},
		{Reason(9).String(), "reason(9)"},
	}
	for _, tc := range cases {
		must.Eq(t, tc.want, tc.got)
	}
}

// TestDeliveredHandsOverTakenAllocs: Delivered gives the batch's own
// allocs, equal to Entries' copies; an update added after the tick shares
// with them the task states that did not change (Add reuses what the last
// Tick took), and only those.
func TestDeliveredHandsOverTakenAllocs(t *testing.T) {
	withStates := func() *structs.Allocation {
		a := upd("a", "v1")
		a.TaskStates = map[string]*structs.TaskState{"web": {State: structs.TaskStateRunning,
			Events: []*structs.TaskEvent{structs.NewTaskEvent(structs.TaskStarted, time.Unix(0, 0).UTC())}}}
		return a
	}
	var b Buffer
	b.Add(withStates())
	res := b.Tick(TickInput{ServersContacted: true, Classify: ClassifyMap(map[string]Class{
		"a": {Priority: Urgent, HasRunner: true},
	})})
	must.Eq(t, Send, res.Action)
	b.Succeeded()
	b.Add(withStates())
	copies, own := res.Batch.Entries(), res.Batch.Delivered()
	must.Eq(t, len(copies), len(own))
	for i := range own {
		if diff := cmp.Diff(copies[i], own[i]); diff != "" {
			t.Fatalf("Delivered()[%d] differs from Entries() (-copy +own):\n%s", i, diff)
		}
	}
	for i, a := range res.Batch.Peek() {
		must.True(t, a == own[i].Alloc, must.Sprintf("Peek()[%d] is not the batch's own alloc", i))
	}
	next, ok := b.Peek("a")
	must.True(t, ok)
	must.MapLen(t, 1, own[0].Alloc.TaskStates)
	for name, s := range own[0].Alloc.TaskStates {
		must.True(t, s == next.TaskStates[name], must.Sprintf("unchanged task state %q not shared with what the tick took", name))
	}
	changed := withStates()
	changed.TaskStates["web"].State = structs.TaskStateDead
	b.Add(changed)
	next, _ = b.Peek("a")
	must.Eq(t, structs.TaskStateDead, next.TaskStates["web"].State)
	must.Eq(t, structs.TaskStateRunning, own[0].Alloc.TaskStates["web"].State)
	must.True(t, next.TaskStates["web"] != own[0].Alloc.TaskStates["web"], must.Sprintf("a changed task state is shared"))
	must.True(t, next.TaskStates["web"].Events[0] == own[0].Alloc.TaskStates["web"].Events[0], must.Sprintf("an unchanged event is not shared"))
}

// TestForgetDropsTaken: after Forget, an update of the alloc shares
// nothing with what a Tick took of it.
func TestForgetDropsTaken(t *testing.T) {
	withStates := func() *structs.Allocation {
		a := upd("a", "v1")
		a.TaskStates = map[string]*structs.TaskState{"web": {State: structs.TaskStateRunning}}
		return a
	}
	var b Buffer
	b.Add(withStates())
	res := b.Tick(TickInput{ServersContacted: true, Classify: ClassifyMap(map[string]Class{"a": {Priority: Urgent, HasRunner: true}})})
	must.Eq(t, Send, res.Action)
	b.Succeeded()
	own := res.Batch.Delivered()
	b.Forget("a")
	b.Add(withStates())
	next, ok := b.Peek("a")
	must.True(t, ok)
	must.True(t, next.TaskStates["web"] != own[0].Alloc.TaskStates["web"], must.Sprintf("a forgotten alloc's task state is shared"))
}
