package client

import (
	"context"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// ContextRPCClient is an RPCClient whose calls can be cancelled. When the
// client's RPCClient also implements it, every server call (the blocking
// Node.GetClientAllocs included) is made with RPCContext and cancelled by
// Shutdown. A plain RPCClient cannot be interrupted: Shutdown then waits
// until the transport returns the call in flight (a simulated network
// should fail a disconnected node's calls).
type ContextRPCClient interface {
	RPCContext(ctx context.Context, method string, args, reply any) error
}

// ArgsReadingRPCClient is an RPCClient that only reads a call's args,
// and only until the call returns: it changes nothing of them and keeps
// nothing of them (a transport that copies or encodes them before it
// returns). When the client's RPCClient implements it and ReadsArgsOnly
// reports true, the sync loop sends the buffer's own updates instead of
// copies of them.
type ArgsReadingRPCClient interface {
	ReadsArgsOnly() bool
}

// rpcCaller makes server calls with cancellation when the transport
// supports it.
type rpcCaller struct {
	plain interfaces.RPCClient
	ctx   ContextRPCClient // nil when plain does not implement it
	// readsArgsOnly: plain is an ArgsReadingRPCClient that reads only.
	readsArgsOnly bool
}

func newRPCCaller(c interfaces.RPCClient) rpcCaller {
	cc, _ := c.(ContextRPCClient)
	ar, ok := c.(ArgsReadingRPCClient)
	return rpcCaller{plain: c, ctx: cc, readsArgsOnly: ok && ar.ReadsArgsOnly()}
}

func (r rpcCaller) call(ctx context.Context, method string, args, reply any) error {
	if r.ctx != nil {
		return r.ctx.RPCContext(ctx, method, args, reply)
	}
	return r.plain.RPC(method, args, reply)
}
