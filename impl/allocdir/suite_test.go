package allocdir_test

import (
	"path/filepath"
	"testing"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/allocdir/allocdirtest"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// TestDiskConformance runs the ADIR suite on real files under t.TempDir.
func TestDiskConformance(t *testing.T) {
	allocdirtest.TestAllocDir(t, func(t *testing.T, clk *clock.Mock) interfaces.AllocDirFactory {
		f, err := allocdir.DiskFactory(allocdir.Config{Root: filepath.Join(t.TempDir(), "alloc"), Clock: clk})
		must.NoError(t, err)
		return f
	})
}

// TestMemConformance runs the ADIR suite on a MemFS.
func TestMemConformance(t *testing.T) {
	allocdirtest.TestAllocDir(t, func(t *testing.T, clk *clock.Mock) interfaces.AllocDirFactory {
		return allocdir.MemFactory(allocdir.NewMemFS(clk), allocdir.Config{Clock: clk})
	})
}
