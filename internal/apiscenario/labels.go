package apiscenario

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/allocsim/allocsim/model/structs"
)

// uuidPattern matches an ID in output: a UUID (the format must.UUIDv4
// checks), lower case as the servers draw them.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// nilUUID is the ID of no alloc; written in a file, it prints as is.
const nilUUID = "00000000-0000-0000-0000-000000000000"

// IsUUID reports whether s is one well-formed UUID.
func IsUUID(s string) bool {
	return len(s) == 36 && uuidPattern.MatchString(strings.ToLower(s))
}

// UUIDs lists the UUIDs s names, in order.
func UUIDs(s string) []string { return uuidPattern.FindAllString(s, -1) }

// Server is what labels read of the simulated server behind an agent
// (sim/server.Server): its allocs.
type Server interface {
	Allocs() []*structs.Allocation
	AllocByName(name string) *structs.Allocation
}

// Labels prints IDs as labels (the package's first output convention)
// and reads them back. The zero value has no label yet.
type Labels struct {
	label map[string]string // ID -> label
	ids   map[string]string // label -> ID
	n     int               // UUIDs labelled <idN>
}

// set labels id, unless it has a label already; a label taken already
// gets a number (<web.g[0]#2>).
func (l *Labels) set(id, label string) {
	if l.label == nil {
		l.label, l.ids = map[string]string{}, map[string]string{}
	}
	if _, ok := l.label[id]; ok {
		return
	}
	for n := 2; l.ids[label] != ""; n++ {
		label = fmt.Sprintf("%s#%d>", strings.TrimSuffix(label, ">"), n)
	}
	l.label[id], l.ids[label] = label, id
}

// ID is the ID of label.
func (l *Labels) ID(label string) (string, bool) {
	id, ok := l.ids[label]
	return id, ok
}

// AllocID resolves an alloc argument: an alloc's name on srv, a label
// (<...>) or an ID.
func (l *Labels) AllocID(ref string, srv Server) string {
	if a := srv.AllocByName(ref); a != nil {
		return a.ID
	}
	if id, ok := l.ID(ref); ok {
		return id
	}
	return ref
}

// Redact replaces in s the node's ID (nodeID), every alloc ID of srv and
// every other UUID but the nil UUID by its label.
func (l *Labels) Redact(s, nodeID string, srv Server) string {
	l.set(nodeID, "<node>")
	for _, a := range srv.Allocs() {
		l.set(a.ID, "<"+a.Name+">")
	}
	return uuidPattern.ReplaceAllStringFunc(s, func(id string) string {
		if label, ok := l.label[id]; ok {
			return label
		}
		if id == nilUUID {
			return id
		}
		l.n++
		l.set(id, fmt.Sprintf("<id%d>", l.n))
		return l.label[id]
	})
}
