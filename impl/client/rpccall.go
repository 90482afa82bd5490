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
	plain interfaces.RPCClient
	ctx   ContextRPCClient // nil when plain does not implement it
}

func newRPCCaller(c interfaces.RPCClient) rpcCaller {
	cc, _ := c.(ContextRPCClient)
	return rpcCaller{plain: c, ctx: cc}
}

func (r rpcCaller) call(ctx context.Context, method string, args, reply any) error {
	if r.ctx != nil {
		return r.ctx.RPCContext(ctx, method, args, reply)
	}
	return r.plain.RPC(method, args, reply)
}
