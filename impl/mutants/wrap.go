package mutants

import (
	"context"

	"github.com/allocsim/allocsim/impl/allocrunner"
	"github.com/allocsim/allocsim/impl/client"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
)

// tasks is the reference alloc runner whose task runners decide by p.
func tasks(p taskrunner.Policies) interfaces.AllocRunnerFactory {
	return allocrunner.Factory(allocrunner.Policies{Task: p})
}

// withConfig is the reference alloc runner of a Config copy edit changed.
func withConfig(edit func(c *interfaces.Config)) interfaces.AllocRunnerFactory {
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		c := *cfg
		edit(&c)
		return allocrunner.NewAllocRunner(&c)
	}
}

// wrapRunner is the reference alloc runner wrapped by wrap.
func wrapRunner(wrap func(interfaces.AllocRunner) interfaces.AllocRunner) interfaces.AllocRunnerFactory {
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		ar, err := allocrunner.NewAllocRunner(cfg)
		if err != nil {
			return nil, err
		}
		return wrap(ar), nil
	}
}

// runner is an alloc runner wrapper's base: every method is the wrapped
// runner's, PersistStateTo too (the client's batched snapshot).
type runner struct{ interfaces.AllocRunner }

func (r runner) PersistStateTo(db interfaces.StateDB) error {
	return r.AllocRunner.(interface {
		PersistStateTo(interfaces.StateDB) error
	}).PersistStateTo(db)
}

// withOptions is the reference client of an options copy edit changed.
func withOptions(edit func(o *interfaces.ClientOptions)) interfaces.ClientFactory {
	return func(opts *interfaces.ClientOptions) (interfaces.Client, error) {
		o := *opts
		edit(&o)
		return client.New(&o)
	}
}

// updateAllocs wraps a client's RPC client: each Node.UpdateAlloc goes
// through around (send makes the call), every other call straight on.
type updateAllocs struct {
	next   interfaces.RPCClient
	around func(req *structs.AllocUpdateRequest, send func() error) error
}

func (u updateAllocs) RPC(method string, args, reply any) error {
	return u.RPCContext(context.Background(), method, args, reply)
}

func (u updateAllocs) RPCContext(ctx context.Context, method string, args, reply any) error {
	send := func() error {
		if c, ok := u.next.(client.ContextRPCClient); ok {
			return c.RPCContext(ctx, method, args, reply)
		}
		return u.next.RPC(method, args, reply)
	}
	if req, ok := args.(*structs.AllocUpdateRequest); ok && method == structs.RPCNodeUpdateAlloc {
		return u.around(req, send)
	}
	return send()
}
