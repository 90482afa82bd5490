package allocdir

import "io/fs"

// MkdirAll implements Writer.
func (a *AllocDir) MkdirAll(path string, perm fs.FileMode) error {
	t, err := a.confineWrite(path, true)
	if err != nil {
		return err
	}
	if err := a.store.mkdirAll(t.real, perm); err != nil {
		return err
	}
	return a.store.chmod(t.real, perm)
}

// WriteFile implements Writer.
func (a *AllocDir) WriteFile(path string, data []byte, perm fs.FileMode) error {
	t, err := a.confineWrite(path, true)
	if err != nil {
		return err
	}
	if err := a.store.writeFile(t.real, data, perm); err != nil {
		return err
	}
	return a.store.chmod(t.real, perm)
}

// Symlink implements Writer.
func (a *AllocDir) Symlink(target, path string) error {
	t, err := a.confineWrite(path, false)
	if err != nil {
		return err
	}
	return a.store.symlink(target, t.abs)
}

// Remove implements Writer.
func (a *AllocDir) Remove(path string) error {
	t, err := a.confineWrite(path, false)
	if err != nil {
		return err
	}
	return a.store.remove(t.abs)
}
