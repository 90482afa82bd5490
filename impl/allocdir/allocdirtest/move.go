package allocdirtest

import (
	"fmt"
)

// previous is a built alloc dir with data and a task "web" whose local
// dir holds state, and a task "api" that was never built: what Move takes
// over.
func (e *env) previous(id string) (*fixture, error) {
	prev, err := e.alloc(id, "web")
	if err != nil {
		return nil, err
	}
	prev.NewTaskDir("api")
	return prev, prev.files("alloc/data/keep", "k", "web/local/state", "s")
}

// checkMove: other's alloc/data replaces ours, each task's local moves
// into a new 0777 task dir, tasks without a local dir are skipped, and the
// moved-into task dir builds afterwards (ADIR-3).
func checkMove(e *env) error {
	r := &report{}
	prev, err := e.previous("prev")
	if err != nil {
		return err
	}
	next, err := e.alloc("next")
	if err != nil {
		return err
	}
	if err := next.files("alloc/data/stale", "x"); err != nil {
		return err
	}
	if !r.wantNil(`Move(prev, ["web" "api"])`, next.Move(prev, []string{"web", "api"})) {
		return r.err()
	}
	r.wantNames(next, "alloc/data", "keep")
	r.wantContent(next, "alloc/data/keep", 0, "k")
	r.wantContent(next, "web/local/state", 0, "s")
	r.wantMode(next, "web", modeOpenDir)
	_, err = next.Stat("api")
	r.wantNotExist(`Stat("api") after moving a task without local dir`, err)
	_, err = prev.Stat("alloc/data")
	r.wantNotExist(`prev.Stat("alloc/data") after Move`, err)
	_, err = prev.Stat("web/local")
	r.wantNotExist(`prev.Stat("web/local") after Move`, err)
	if r.wantNil(`NewTaskDir("web").Build() after Move`, next.NewTaskDir("web").Build()) {
		r.wantContent(next, "web/local/state", 0, "s")
		r.wantMode(next, "web/tmp", modeStickyDir)
	}

	// Nothing to take over: an unbuilt other leaves our data alone.
	fresh, err := e.alloc("fresh")
	if err != nil {
		return err
	}
	if err := fresh.files("alloc/data/mine", "m"); err != nil {
		return err
	}
	r.wantNil(`Move(unbuilt, ["web"])`, fresh.Move(e.factory("never"), []string{"web"}))
	r.wantContent(fresh, "alloc/data/mine", 0, "m")
	return r.err()
}

// checkMoveNotBuilt: Move requires the receiver built (ADIR-3).
func checkMoveNotBuilt(e *env) error {
	r := &report{}
	prev, err := e.previous("prev")
	if err != nil {
		return err
	}
	next := e.factory("next")
	want := fmt.Sprintf("unable to move to %q - alloc dir is not built", next.AllocDirPath())
	r.wantErr(`Move(prev, ["web"]) before Build`, next.Move(prev, []string{"web"}), want)
	r.wantContent(prev, "alloc/data/keep", 0, "k")
	return r.err()
}

// checkMoveErrors: each Move step names its failure (ADIR-3).
func checkMoveErrors(e *env) error {
	r := &report{}
	cases := []struct {
		name   string
		breaks func(next *fixture) error // makes that step fail
		want   string
	}{
		{"data", func(next *fixture) error {
			for _, p := range []string{"alloc/data", "alloc/logs", "alloc/tmp", "alloc"} {
				if err := next.w.Remove(p); err != nil {
					return err
				}
			}
			return nil
		}, "error moving data dir: "},
		{"task dir", func(next *fixture) error {
			return next.files("web", "a file where the task dir goes")
		}, `error creating task "web" dir: `},
		{"task local", func(next *fixture) error {
			return next.files("web/local/occupied/", "")
		}, `error moving task "web" local dir: `},
	}
	for i, c := range cases {
		prev, err := e.previous(fmt.Sprintf("prev%d", i))
		if err != nil {
			return err
		}
		next, err := e.alloc(fmt.Sprintf("next%d", i))
		if err != nil {
			return err
		}
		if err := c.breaks(next); err != nil {
			return fmt.Errorf("setup %s: %w", c.name, err)
		}
		r.wantErrPrefix(fmt.Sprintf(`Move(prev, ["web"]) with a broken %s`, c.name),
			next.Move(prev, []string{"web"}), c.want)
	}
	return r.err()
}
