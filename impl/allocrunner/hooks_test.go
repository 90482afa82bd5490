package allocrunner

import (
	"testing"
	"testing/synctest"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// allocHookKinds are the alloc hook kinds of impl/interfaces, in the order
// kindsOf lists them, with the SPEC AR-4 word for each.
var allocHookKinds = []struct {
	kind string
	is   func(interfaces.RunnerHook) bool
}{
	{"prerun", func(h interfaces.RunnerHook) bool { _, ok := h.(interfaces.RunnerPrerunHook); return ok }},
	{"postrun", func(h interfaces.RunnerHook) bool { _, ok := h.(interfaces.RunnerPostrunHook); return ok }},
	{"destroy", func(h interfaces.RunnerHook) bool { _, ok := h.(interfaces.RunnerDestroyHook); return ok }},
	{"update", func(h interfaces.RunnerHook) bool { _, ok := h.(interfaces.RunnerUpdateHook); return ok }},
	{"prekill", func(h interfaces.RunnerHook) bool { _, ok := h.(interfaces.RunnerPreKillHook); return ok }},
	{"shutdown", func(h interfaces.RunnerHook) bool { _, ok := h.(interfaces.ShutdownHook); return ok }},
}

// kindsOf returns the kinds h implements, the way the runner finds them:
// by type assertion.
func kindsOf(h interfaces.RunnerHook) []string {
	var out []string
	for _, k := range allocHookKinds {
		if k.is(h) {
			out = append(out, k.kind)
		}
	}
	return out
}

// TestHookInterfaces_AR4: the runner's hook slice holds the AR-4 hooks in
// order, each implementing exactly its kinds. Hooks are dispatched by type
// assertion, so a method whose signature drifts silently drops the hook
// from a kind; an extra kind would run the hook where AR-4 does not.
func TestHookInterfaces_AR4(t *testing.T) {
	type hookKinds struct {
		Name  string
		Kinds []string
	}
	want := []hookKinds{
		{"alloc_dir", []string{"prerun", "destroy"}},
		{"await_previous_allocations", []string{"prerun"}},
		{"migrate_disk", []string{"prerun"}},
		{"csi_hook", []string{"prerun", "postrun"}},
	}
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.build()
		var got []hookKinds
		for _, hk := range ar.hooks {
			got = append(got, hookKinds{hk.Name(), kindsOf(hk)})
		}
		must.Eq(t, want, got)
		h.finish()
	})
}

// TestKindsOf: the detector sees every kind (the recording hook has all
// six) and invents none.
func TestKindsOf(t *testing.T) {
	must.Eq(t, []string{"prerun", "postrun", "destroy", "update", "prekill", "shutdown"}, kindsOf(&recordingHook{}))
	must.SliceEmpty(t, kindsOf(nameOnly{}))
}

type nameOnly struct{}

func (nameOnly) Name() string { return "name_only" }
