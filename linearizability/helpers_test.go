package linearizability

import "fmt"

// Builders for hand-written histories: op(client, call, return) plus the
// model's input and output.

func set(client int, call, ret int64, mounts map[string]string) Op {
	return Op{Client: client, Call: call, Return: ret, Input: SetMounts{Mounts: mounts}}
}

// get reads aliases and reports missing ("" for all present), sources not
// recorded.
func get(client int, call, ret int64, aliases []string, missing string) Op {
	return Op{Client: client, Call: call, Return: ret,
		Input: GetMounts{Aliases: aliases}, Output: MountsSeen{Missing: missing}}
}

// getSrc is get with the sources read recorded.
func getSrc(client int, call, ret int64, aliases []string, missing string, sources map[string]string) Op {
	o := get(client, call, ret, aliases, missing)
	o.Output = MountsSeen{Missing: missing, Sources: sources}
	return o
}

func store(client int, call, ret int64, alloc, value string) Op {
	return Op{Client: client, Call: call, Return: ret, Input: StoreState{Alloc: alloc, Value: value}}
}

func read(client int, call, ret int64, alloc, value string) Op {
	return Op{Client: client, Call: call, Return: ret,
		Input: ReadState{Alloc: alloc}, Output: StateSeen{Value: value}}
}

var ab = []string{"a", "b"}

// fullAB is the complete map of aliases a and b.
var fullAB = map[string]string{"a": "/csi/a", "b": "/csi/b"}

// ambiguous is a partition that porcupine cannot settle quickly: n
// concurrent stores of distinct values, then a read of a value never
// stored. It is Illegal, but proving it explores about n·2^n states
// (n = 14 takes a few hundred thousand model steps, n = 24 hours), so
// DefaultBudget decides n = 8 and gives Unknown from n = 14 on.
func ambiguous(key string, n int) Partition {
	var ops []Op
	for i := range n {
		ops = append(ops, store(i, 0, 100, key, fmt.Sprint("v", i)))
	}
	ops = append(ops, read(n, 200, 210, key, "never stored"))
	return Partition{Key: key, Ops: ops}
}
