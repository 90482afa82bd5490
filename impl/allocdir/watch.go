package allocdir

import (
	"context"
	"io/fs"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// BlockUntilExists implements interfaces.AllocDir (ADIR-5). The ticker is armed
// before it returns; each poll re-runs the escape check, and a path that
// now escapes (or fails the check) gets that error instead of nil. When ctx
// is done at a wake-up, ctx's error wins over a found path.
func (a *AllocDir) BlockUntilExists(ctx context.Context, path string) (chan error, error) {
	if _, err := a.confine(path); err != nil {
		return nil, err
	}
	ch := make(chan error, 1)
	ticker := a.clock.Ticker(a.poll)
	if found, err := a.existsYet(path); found {
		ticker.Stop()
		ch <- err
		close(ch)
		return ch, nil
	}
	go func() {
		defer close(ch)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
			case <-ticker.C:
			}
			if err := ctx.Err(); err != nil {
				ch <- err
				return
			}
			if found, err := a.existsYet(path); found {
				ch <- err
				return
			}
		}
	}()
	return ch, nil
}

// existsYet is one BlockUntilExists poll: found is true when the wait is over,
// with nil or the escape check's error.
func (a *AllocDir) existsYet(path string) (found bool, err error) {
	t, err := a.confine(path)
	if err != nil {
		return true, err
	}
	_, err = a.store.stat(t.real)
	return err == nil, nil
}

// changeKind is what one ChangeEvents poll saw.
type changeKind int

const (
	unchanged changeKind = iota
	modified
	truncated
	deleted
)

// classify compares a poll with the previous one (FileChanges): a missing
// file is deleted, a smaller size truncated, a larger size or another
// modification time modified.
func classify(prevSize int64, prevMod time.Time, info fs.FileInfo) changeKind {
	switch {
	case info == nil:
		return deleted
	case info.Size() < prevSize:
		return truncated
	case info.Size() > prevSize || !info.ModTime().Equal(prevMod):
		return modified
	}
	return unchanged
}

// ChangeEvents implements interfaces.AllocDir (ADIR-5); see FileChanges. The path
// must exist at the call (else the stat error, fs.ErrNotExist for a
// missing file). A path that starts to escape counts as deleted; other
// stat failures are retried at the next poll.
func (a *AllocDir) ChangeEvents(ctx context.Context, path string, offset int64) (*interfaces.FileChanges, error) {
	t, err := a.confine(path)
	if err != nil {
		return nil, err
	}
	info, err := a.store.stat(t.real)
	if err != nil {
		return nil, err
	}
	mod, trunc, del := make(chan struct{}, 1), make(chan struct{}, 1), make(chan struct{}, 1)
	ticker := a.clock.Ticker(a.poll)
	go func() {
		defer ticker.Stop()
		size, modTime := offset, info.ModTime()
		for {
			select {
			case <-ctx.Done():
			case <-ticker.C:
			}
			if ctx.Err() != nil {
				return
			}
			info, err := a.watchStat(path)
			if err != nil && !isNotExist(err) {
				continue
			}
			switch classify(size, modTime, info) {
			case deleted:
				notify(del)
				return
			case truncated:
				notify(trunc)
			case modified:
				notify(mod)
			}
			size, modTime = info.Size(), info.ModTime()
		}
	}()
	return &interfaces.FileChanges{Modified: mod, Truncated: trunc, Deleted: del}, nil
}

// watchStat is one ChangeEvents poll; a path that fails the escape check
// reads as missing.
func (a *AllocDir) watchStat(path string) (fs.FileInfo, error) {
	t, err := a.confine(path)
	if err != nil {
		return nil, fs.ErrNotExist
	}
	info, err := a.store.stat(t.real)
	if err != nil {
		return nil, err
	}
	return info, nil
}

// notify sends without blocking; a pending notification absorbs this one.
func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
