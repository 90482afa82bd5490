package suiterun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Binaries keeps the test binaries Run builds, so that several runs of
// one process (a sweep's chunks) build each once. The zero value is not
// ready: use NewBinaries; Close removes what it built.
type Binaries struct {
	dir string

	mu      sync.Mutex
	builtin *binary
	pkgs    map[string]binary
}

// NewBinaries returns an empty cache with its own temporary directory.
func NewBinaries() (*Binaries, error) {
	dir, err := os.MkdirTemp("", "conform-bin-")
	if err != nil {
		return nil, fmt.Errorf("binary cache: %w", err)
	}
	return &Binaries{dir: dir, pkgs: map[string]binary{}}, nil
}

// Close removes the cache's binaries.
func (b *Binaries) Close() error { return os.RemoveAll(b.dir) }

// get returns target t's binary, building it on first use.
func (b *Binaries) get(ctx context.Context, p Plan, t Target) (binary, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t.Builtin {
		if b.builtin == nil {
			src := p.AllocsimDir
			if src == "" {
				var err error
				if src, err = findAllocsim(ctx, p.Go, p.WorkDir); err != nil {
					return binary{}, err
				}
			}
			bin, err := buildBuiltin(ctx, p.Go, src, b.dir)
			if err != nil {
				return binary{}, err
			}
			b.builtin = &bin
		}
		return *b.builtin, nil
	}
	key := t.Pkg + "." + t.Factory
	bin, ok := b.pkgs[key]
	if !ok {
		var err error
		bin, err = buildPackage(ctx, p.Go, p.WorkDir, t.Pkg, t.Factory, filepath.Join(b.dir, fmt.Sprintf("pkg%d", len(b.pkgs))))
		if err != nil {
			return binary{}, err
		}
		b.pkgs[key] = bin
	}
	return bin, nil
}
