package allocdirtest

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
)

// Mode strings of the layout (ADIR-2).
const (
	modeAllocDir  = "drwxr-xr-x"
	modeOpenDir   = "drwxrwxrwx"
	modeStickyDir = "dtrwxrwxrwx"
)

// checkLayout: paths, modes, Build makes no task dirs, NewTaskDir does no
// I/O, TaskDir.Build makes the task layout (ADIR-1, ADIR-2).
func checkLayout(e *env) error {
	r := &report{}
	a := e.factory("a1")
	dir := a.AllocDirPath()
	if !filepath.IsAbs(dir) || filepath.Base(dir) != "a1" {
		r.add("AllocDirPath() = %q, want an absolute <root>/a1", dir)
	}
	if got, want := a.ShareDirPath(), filepath.Join(dir, "alloc"); got != want {
		r.add("ShareDirPath() = %q, want %q", got, want)
	}
	if !r.wantNil("Build()", a.Build()) {
		return r.err()
	}
	r.wantMode(a, "", modeAllocDir)
	for _, p := range []string{"alloc", "alloc/logs", "alloc/tmp", "alloc/data"} {
		r.wantMode(a, p, modeOpenDir)
	}
	r.wantNames(a, "", "alloc")
	r.wantNames(a, "alloc", "data", "logs", "tmp")

	td := a.NewTaskDir("web")
	if td == nil {
		r.add("NewTaskDir(%q) = nil, want a task dir", "web")
		return r.err()
	}
	share := filepath.Join(dir, "alloc")
	for _, f := range []struct{ field, got, want string }{
		{"Dir", td.Dir, filepath.Join(dir, "web")},
		{"LocalDir", td.LocalDir, filepath.Join(dir, "web", "local")},
		{"SecretsDir", td.SecretsDir, filepath.Join(dir, "web", "secrets")},
		{"PrivateDir", td.PrivateDir, filepath.Join(dir, "web", "private")},
		{"SharedAllocDir", td.SharedAllocDir, share},
		{"LogDir", td.LogDir, filepath.Join(share, "logs")},
	} {
		if f.got != f.want {
			r.add("NewTaskDir(%q).%s = %q, want %q", "web", f.field, f.got, f.want)
		}
	}
	_, err := a.Stat("web")
	r.wantNotExist(`Stat("web") after NewTaskDir, before TaskDir.Build`, err)
	if !r.wantNil(`NewTaskDir("web").Build()`, td.Build()) {
		return r.err()
	}
	for _, p := range []string{"web", "web/local", "web/secrets", "web/private"} {
		r.wantMode(a, p, modeOpenDir)
	}
	r.wantMode(a, "web/tmp", modeStickyDir)
	r.wantNames(a, "", "alloc", "web")
	r.wantNames(a, "web", "local", "private", "secrets", "tmp")
	return r.err()
}

// checkTaskDirs: NewTaskDir registers, replacing; GetTaskDir finds the
// latest or nil (ADIR-1).
func checkTaskDirs(e *env) error {
	r := &report{}
	a := e.factory("a1")
	if td := a.GetTaskDir("web"); td != nil {
		r.add("GetTaskDir(%q) = %+v before NewTaskDir, want nil", "web", td)
	}
	first := a.NewTaskDir("web")
	if got := a.GetTaskDir("web"); got != first {
		r.add("GetTaskDir(%q) = %p, want the NewTaskDir result %p", "web", got, first)
	}
	second := a.NewTaskDir("web")
	if got := a.GetTaskDir("web"); got != second || second == nil {
		r.add("GetTaskDir(%q) after a second NewTaskDir = %p, want the replacement %p", "web", got, second)
	}
	if td := a.GetTaskDir("api"); td != nil {
		r.add("GetTaskDir(%q) = %+v, want nil for an unregistered task", "api", td)
	}
	return r.err()
}

// checkBuildIdempotent: Build and TaskDir.Build twice keep files and
// modes (ADIR-3).
func checkBuildIdempotent(e *env) error {
	r := &report{}
	a, err := e.alloc("a1", "web")
	if err != nil {
		return err
	}
	if err := a.files("alloc/data/keep", "k", "web/local/keep", "l"); err != nil {
		return err
	}
	r.wantNil("second Build()", a.Build())
	r.wantNil(`second NewTaskDir("web").Build()`, a.GetTaskDir("web").Build())
	r.wantContent(a, "alloc/data/keep", 0, "k")
	r.wantContent(a, "web/local/keep", 0, "l")
	r.wantMode(a, "", modeAllocDir)
	r.wantMode(a, "alloc/data", modeOpenDir)
	r.wantMode(a, "web/tmp", modeStickyDir)
	return r.err()
}

// checkDestroy: Destroy removes the tree and marks the dir not built; a
// new Build works; destroying a never-built dir is fine (ADIR-3).
func checkDestroy(e *env) error {
	r := &report{}
	a, err := e.alloc("a1", "web")
	if err != nil {
		return err
	}
	if err := a.files("alloc/data/f", "x", "web/local/f", "y"); err != nil {
		return err
	}
	r.wantNil("Destroy()", a.Destroy())
	_, err = a.Stat("")
	r.wantNotExist(`Stat("") after Destroy`, err)
	other := e.factory("a2")
	want := fmt.Sprintf("unable to move to %q - alloc dir is not built", a.AllocDirPath())
	r.wantErr("Move(a2, nil) after Destroy", a.Move(other, nil), want)
	if r.wantNil("Build() after Destroy", a.Build()) {
		r.wantNames(a, "alloc/data")
	}
	r.wantNil("Destroy() of a never-built alloc dir", e.factory("a3").Destroy())
	return r.err()
}

// checkConcurrent: every method may be called concurrently; run it with
// -race (ADIR-1).
func checkConcurrent(e *env) error {
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	var mu sync.Mutex
	r := &report{}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			task := fmt.Sprintf("t%d", i%3)
			errs := []error{a.Build(), errors.New("NewTaskDir returned nil")}
			if td := a.NewTaskDir(task); td != nil {
				errs[1] = td.Build()
			}
			_ = a.GetTaskDir(task)
			_, err := a.Stat("alloc")
			errs = append(errs, err)
			_, err = a.List("")
			errs = append(errs, err)
			mu.Lock()
			defer mu.Unlock()
			for _, err := range errs {
				r.wantNil(fmt.Sprintf("concurrent call for task %s", task), err)
			}
		}()
	}
	wg.Wait()
	r.wantNames(a, "", "alloc", "t0", "t1", "t2")
	return r.err()
}
