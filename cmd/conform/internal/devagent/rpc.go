package devagent

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/allocsim/allocsim/impl/client"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/sim/server"
)

// serverCaller is the server side of the client's connection:
// *server.Server.
type serverCaller interface {
	Call(ctx context.Context, method string, args, reply any) error
}

// localConn is the client's in-process connection to the server. Every
// call copies args and reply through JSON, so client and server never
// share memory, and runs with the caller's context, so the client's
// Shutdown ends its blocking alloc pull (client.ContextRPCClient).
type localConn struct {
	srv serverCaller
}

var (
	_ interfaces.RPCClient    = localConn{}
	_ client.ContextRPCClient = localConn{}
)

// RPC calls method without a deadline.
func (c localConn) RPC(method string, args, reply any) error {
	return c.RPCContext(context.Background(), method, args, reply)
}

// RPCContext calls method; it ends early when ctx is done.
func (c localConn) RPCContext(ctx context.Context, method string, args, reply any) error {
	in, out, err := wireCopies(method, args, reply)
	if err != nil {
		return err
	}
	if err := c.srv.Call(ctx, method, in, out); err != nil {
		return err
	}
	return copyInto(method, out, reply)
}

// clientHandler is the client side of a forwarded call: interfaces.Client.
type clientHandler interface {
	ClientRPC(method string, args, reply any) error
}

// nodeConn is the server's connection to the local client (API-7
// forwarding), copying through JSON both ways like localConn. Errors are
// returned verbatim.
type nodeConn struct {
	client clientHandler
}

var _ server.NodeConn = nodeConn{}

// ClientRPC forwards one call to the client.
func (n nodeConn) ClientRPC(method string, args, reply any) error {
	in, out, err := wireCopies(method, args, reply)
	if err != nil {
		return err
	}
	if err := n.client.ClientRPC(method, in, out); err != nil {
		return err
	}
	return copyInto(method, out, reply)
}

// wireCopies returns a JSON copy of args (a pointer, of the same type) and
// a fresh value of reply's type. Both must be non-nil pointers.
func wireCopies(method string, args, reply any) (in, out any, err error) {
	at, rt := reflect.TypeOf(args), reflect.TypeOf(reply)
	if at == nil || at.Kind() != reflect.Pointer || rt == nil || rt.Kind() != reflect.Pointer ||
		reflect.ValueOf(args).IsNil() || reflect.ValueOf(reply).IsNil() {
		return nil, nil, fmt.Errorf("rpc %s: args (%T) and reply (%T) must be non-nil pointers", method, args, reply)
	}
	in = reflect.New(at.Elem()).Interface()
	if err := copyInto(method, args, in); err != nil {
		return nil, nil, err
	}
	return in, reflect.New(rt.Elem()).Interface(), nil
}

// copyInto copies src into dst (a pointer) through JSON.
func copyInto(method string, src, dst any) error {
	b, err := json.Marshal(src)
	if err != nil {
		return fmt.Errorf("rpc %s: encoding %T: %w", method, src, err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("rpc %s: decoding %T: %w", method, dst, err)
	}
	return nil
}
