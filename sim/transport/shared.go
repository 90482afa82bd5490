package transport

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/allocsim/allocsim/model/structs"
)

// sharedCheckEvery: one shared reply in this many, the first included, is
// checked (sharedChecks).
const sharedCheckEvery = 8

// RPCSharedReply is RPCContext for a caller that only reads the reply
// (interfaces.SharedReplyRPCClient): the reply is the server's answer
// itself, sharing its memory (an Alloc.GetAllocs reply holds the
// server's stored allocs, which the server never changes), instead of a
// copy of it. The call is otherwise the same: traced the same, delayed,
// dropped and cut the same.
func (c *Conn) RPCSharedReply(ctx context.Context, method string, args, reply any) error {
	return c.call(ctx, method, args, reply, true)
}

// sharedChecks holds the promise of shared replies to account: every
// sharedCheckEvery-th shared reply of a network is kept with a wire copy
// of it as it was delivered, and compared with it when the next shared
// reply is delivered and at VerifyShared. A client that changed it is
// reported to Config.SharedChanged. An alloc fetch compares by the typed
// structs.Allocation.SameJSON (what encodes alike is alike, so what JSON
// does not keep as it is, an int in an `any`, compares alike); any other
// reply, or a pull that compares different, is compared again through a
// second wire copy with reflect.DeepEqual, which decides.
type sharedChecks struct {
	mu      sync.Mutex
	n       uint64
	pending *sharedReply
}

type sharedReply struct {
	method string
	reply  reflect.Value // the server's answer, as the client holds it
	copy   any           // a wire copy of it when delivered
}

// share hands the server's answer out to the caller's reply (the
// top-level value is the caller's, what it points to the server's), and
// checks the pending sample first.
func (n *Network) share(method string, out, reply any) {
	n.VerifyShared()
	reflect.ValueOf(reply).Elem().Set(reflect.ValueOf(out).Elem())
	n.shared.mu.Lock()
	defer n.shared.mu.Unlock()
	n.shared.n++
	if (n.shared.n-1)%sharedCheckEvery != 0 {
		return
	}
	if c, ok := wireSnapshot(out); ok {
		n.shared.pending = &sharedReply{method: method, reply: reflect.ValueOf(out), copy: c}
	}
}

// VerifyShared compares the pending sampled shared reply with what it
// was when delivered, reporting a change, and drops it.
func (n *Network) VerifyShared() {
	n.shared.mu.Lock()
	p := n.shared.pending
	n.shared.pending = nil
	n.shared.mu.Unlock()
	if p == nil {
		return
	}
	if sameJSONReply(p.reply.Interface(), p.copy) {
		return
	}
	now, ok := wireSnapshot(p.reply.Interface())
	if ok && reflect.DeepEqual(now, p.copy) {
		return
	}
	if n.cfg.SharedChanged != nil {
		n.cfg.SharedChanged(fmt.Sprintf("the client changed a reply of %s it had asked to share (RPCSharedReply): a shared reply is the server's memory and must stay read-only", p.method))
	}
}

// sameJSONReply reports whether an alloc fetch's reply still encodes as
// its snapshot did; false for any other reply (not decided here).
func sameJSONReply(reply, snapshot any) bool {
	r, ok := reply.(*structs.AllocsGetResponse)
	if !ok {
		return false
	}
	s := snapshot.(*structs.AllocsGetResponse)
	if r.Index != s.Index || len(r.Allocs) != len(s.Allocs) {
		return false
	}
	for i, a := range r.Allocs {
		if !a.SameJSON(s.Allocs[i]) {
			return false
		}
	}
	return true
}

// wireSnapshot is a wire copy of the value v points to, or ok false when
// it does not copy field by field.
func wireSnapshot(v any) (any, bool) {
	out := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	return out, wireCopy(v, out)
}
