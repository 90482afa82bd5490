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

// rpcCaller makes server calls with cancellation when the transport
// supports it.
type rpcCaller struct {
	plain  interfaces.RPCClient
	ctx    ContextRPCClient                // nil when plain does not implement it
	shared interfaces.SharedReplyRPCClient // nil likewise
}

func newRPCCaller(c interfaces.RPCClient) rpcCaller {
	cc, _ := c.(ContextRPCClient)
	sc, _ := c.(interfaces.SharedReplyRPCClient)
	return rpcCaller{plain: c, ctx: cc, shared: sc}
}

// callShared is call for a reply the caller only reads: the transport
// may then share it with the server instead of copying it
// (interfaces.SharedReplyRPCClient).
func (r rpcCaller) callShared(ctx context.Context, method string, args, reply any) error {
	if r.shared != nil {
		return r.shared.RPCSharedReply(ctx, method, args, reply)
	}
	return r.call(ctx, method, args, reply)
}

func (r rpcCaller) call(ctx context.Context, method string, args, reply any) error {
	if r.ctx != nil {
		return r.ctx.RPCContext(ctx, method, args, reply)
	}
	return r.plain.RPC(method, args, reply)
}
