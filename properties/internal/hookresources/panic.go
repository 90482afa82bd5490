package hookresources

import (
	"fmt"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// noNilRead: HOOKRES-4's "no nil access, no panic". A runner that
// recovers a panicking prestart hook reports it as `Task hook failed`
// with Message `<hook>: panic: <value>` (model/structs FmtHookPanic); one
// that does not crashes the test binary, which fails the run just as
// surely (without the suite's report).
var noNilRead = prop.Property{
	ID:         "HOOKRES-4/no-nil-read",
	Specs:      []string{"HOOKRES-4", "HOOKRES-1", "HOOKRES-3"},
	Doc:        "while restores race the CSI prerun (mounts that block or fail, crashes, stops), no prestart hook reads nil hook resources or panics",
	Faults:     classes,
	Draw:       drawRestores,
	Situations: situations,
	New: func(scenario.Scenario) prop.Checker {
		f := prop.NewEventFeed()
		return prop.Checks{OnFinal: reach, OnSettled: func(v *prop.View) {
			for _, ne := range f.Next(v) {
				if hook, msg, ok := panicked(ne.Event); ok {
					v.Violatef(ne.Key.Alloc, ne.Key.Task, "prestart hook "+hook, msg, "no panic: hook resources are never nil, a missing mount is `"+
						fmt.Sprintf(structs.FmtNoCSIMount, "<alias>")+"`")
					return
				}
			}
		}}
	},
}

// panicked reports whether e is a `Task hook failed` event of a hook that
// panicked, with the hook's name and the message.
func panicked(e *structs.TaskEvent) (hook, msg string, ok bool) {
	if e == nil || e.Type != structs.TaskHookFailed {
		return "", "", false
	}
	hook, rest, found := structs.SplitHookFailed(e.Message)
	if !found || !structs.IsHookPanic(rest) {
		return "", "", false
	}
	return hook, e.Message, true
}
