package allocjson

import (
	"encoding/json"
	"strconv"

	"github.com/allocsim/allocsim/model/structs"
)

// Alloc returns json.Marshal(a)'s bytes, given job, the bytes
// json.Marshal gives a.Job: the alloc's own fields and task states are
// written by hand around them, so that a caller that keeps a job's bytes
// (the state DB's memo: a job is most of an alloc's bytes and the same
// at every write of it) encodes it once. Whatever the hand encoder does
// not write exactly as encoding/json would sends the whole alloc to
// json.Marshal. reuse is as for AppendTaskState.
func Alloc(a *structs.Allocation, job []byte, reuse Reuse) ([]byte, error) {
	if a == nil {
		return json.Marshal(a)
	}
	return pooled(func(b []byte) ([]byte, error) {
		return appendHand(b, a, func(b []byte) ([]byte, bool) { return appendAlloc(b, a, job, reuser{r: reuse, alloc: a.ID}) })
	})
}

// appendAlloc writes a's fields in structs.Allocation's order, job as
// the Job field's bytes.
func appendAlloc(b []byte, a *structs.Allocation, job []byte, reuse reuser) ([]byte, bool) {
	ok := true
	for _, f := range []struct{ key, v string }{
		{`{"ID":`, a.ID}, {`,"Name":`, a.Name}, {`,"NodeID":`, a.NodeID}, {`,"Namespace":`, a.Namespace}, {`,"JobID":`, a.JobID},
	} {
		b = append(b, f.key...)
		b, ok = appendString(b, f.v, ok)
	}
	b = append(b, `,"Job":`...)
	b = reuse.lent(b, job)
	for _, f := range []struct{ key, v string }{
		{`,"TaskGroup":`, a.TaskGroup}, {`,"DesiredStatus":`, a.DesiredStatus}, {`,"ClientStatus":`, a.ClientStatus},
		{`,"ClientDescription":`, a.ClientDescription},
	} {
		b = append(b, f.key...)
		b, ok = appendString(b, f.v, ok)
	}
	b = append(b, `,"TaskStates":`...)
	b, ok = appendTaskStates(b, a.TaskStates, reuse, ok)
	if !ok {
		return b, false
	}
	b, ok = appendStatuses(b, a.DeploymentStatus, a.NetworkStatus)
	b = append(b, `,"CreateIndex":`...)
	b = strconv.AppendUint(b, a.CreateIndex, 10)
	b = append(b, `,"ModifyIndex":`...)
	b = strconv.AppendUint(b, a.ModifyIndex, 10)
	b = append(b, `,"AllocModifyIndex":`...)
	b = strconv.AppendUint(b, a.AllocModifyIndex, 10)
	b = append(b, `,"CreateTime":`...)
	b = strconv.AppendInt(b, a.CreateTime, 10)
	b = append(b, `,"ModifyTime":`...)
	b = strconv.AppendInt(b, a.ModifyTime, 10)
	return append(b, '}'), ok
}

// ListLen is len(json.Marshal(allocs)), and its error, without keeping
// the bytes: each alloc is written in turn into one pooled buffer.
func ListLen(allocs []*structs.Allocation) (int, error) {
	if allocs == nil {
		return len("null"), nil
	}
	buf := encodeBufs.Get().(*[]byte)
	defer func() {
		if cap(*buf) <= maxPooledBuf {
			encodeBufs.Put(buf)
		}
	}()
	n := len("[]") + len(allocs) - 1
	if len(allocs) == 0 {
		n = len("[]")
	}
	for _, a := range allocs {
		if a == nil {
			n += len("null")
			continue
		}
		job, err := json.Marshal(a.Job)
		if err != nil {
			return 0, err
		}
		b, ok := appendAlloc((*buf)[:0], a, job, reuser{})
		*buf = b
		if !ok {
			enc, err := json.Marshal(a)
			if err != nil {
				return 0, err
			}
			n += len(enc)
			continue
		}
		n += len(b)
	}
	return n, nil
}
