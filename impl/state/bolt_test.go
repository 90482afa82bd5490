package state_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/shoenig/test/must"
	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/allocsim/allocsim/impl/state"
)

// readMeta returns meta/version of a closed bbolt file, nil if missing.
func readMeta(t *testing.T, dir string) []byte {
	t.Helper()
	db, err := bbolt.Open(filepath.Join(dir, state.FileName), 0o600, nil)
	must.NoError(t, err)
	defer db.Close()
	var v []byte
	must.NoError(t, db.View(func(tx *bbolt.Tx) error {
		if b := tx.Bucket([]byte(state.BucketMeta)); b != nil {
			v = append([]byte(nil), b.Get([]byte(state.KeyVersion))...)
		}
		return nil
	}))
	return v
}

// writeMeta sets meta/version of a closed bbolt file.
func writeMeta(t *testing.T, dir string, v []byte) {
	t.Helper()
	db, err := bbolt.Open(filepath.Join(dir, state.FileName), 0o600, nil)
	must.NoError(t, err)
	defer db.Close()
	must.NoError(t, db.Update(func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(state.BucketMeta))
		if err != nil {
			return err
		}
		return b.Put([]byte(state.KeyVersion), v)
	}))
}

func TestOpenBoltCreatesFileAndVersion(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "client")
	db, err := state.OpenBolt(state.BoltConfig{Dir: dir})
	must.NoError(t, err)
	must.EqOp(t, "boltdb", db.Name())
	must.NoError(t, db.Close())

	fi, err := os.Stat(filepath.Join(dir, state.FileName))
	must.NoError(t, err)
	must.EqOp(t, state.FileMode, fi.Mode().Perm())
	must.EqOp(t, "1", string(readMeta(t, dir)))

	// Reopening an existing file of the current version works and keeps it.
	db, err = state.OpenBolt(state.BoltConfig{Dir: dir})
	must.NoError(t, err)
	must.NoError(t, db.Close())
	must.EqOp(t, "1", string(readMeta(t, dir)))
}

func TestOpenBoltRefusesBadSchema(t *testing.T) {
	cases := []struct {
		name    string
		version string
		want    error
	}{
		{"newer", "2", state.ErrSchemaTooNew},
		{"much newer", "1000", state.ErrSchemaTooNew},
		{"zero", "0", state.ErrBadSchema},
		{"negative", "-1", state.ErrBadSchema},
		{"garbage", "\x00v1", state.ErrBadSchema},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeMeta(t, dir, []byte(tc.version))
			db, err := state.OpenBolt(state.BoltConfig{Dir: dir})
			must.Nil(t, db)
			must.ErrorIs(t, err, tc.want)
			must.StrContains(t, err.Error(), filepath.Join(dir, state.FileName))
			// The refused file is left as it was, and closed again.
			must.EqOp(t, tc.version, string(readMeta(t, dir)))
		})
	}
}

func TestOpenBoltErrors(t *testing.T) {
	t.Run("empty dir", func(t *testing.T) {
		_, err := state.OpenBolt(state.BoltConfig{})
		must.ErrorIs(t, err, state.ErrInvalidArgument)
	})
	t.Run("dir is a file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		must.NoError(t, os.WriteFile(f, nil, 0o600))
		_, err := state.OpenBolt(state.BoltConfig{Dir: f})
		must.Error(t, err)
	})
	t.Run("garbage file", func(t *testing.T) {
		dir := t.TempDir()
		junk := make([]byte, 16<<10)
		for i := range junk {
			junk[i] = byte(i * 7)
		}
		must.NoError(t, os.WriteFile(filepath.Join(dir, state.FileName), junk, 0o600))
		_, err := state.OpenBolt(state.BoltConfig{Dir: dir})
		must.Error(t, err)
	})
	t.Run("locked times out", func(t *testing.T) {
		dir := t.TempDir()
		db, err := state.OpenBolt(state.BoltConfig{Dir: dir})
		must.NoError(t, err)
		defer db.Close()
		// flock is per open file, so a second open in this process waits
		// for the lock like another process would, then gives up.
		_, err = state.OpenBolt(state.BoltConfig{Dir: dir, OpenTimeout: 1})
		must.True(t, errors.Is(err, bolterrors.ErrTimeout), must.Sprintf("got %v", err))
	})
	t.Run("reopen fails when the file is locked", func(t *testing.T) {
		dir := t.TempDir()
		db, err := state.OpenBolt(state.BoltConfig{Dir: dir, OpenTimeout: 1})
		must.NoError(t, err)
		must.NoError(t, db.Close())
		other, err := state.OpenBolt(state.BoltConfig{Dir: dir})
		must.NoError(t, err)
		defer other.Close()
		_, err = db.Reopen()
		must.ErrorIs(t, err, bolterrors.ErrTimeout)
	})
}

func TestMemDBName(t *testing.T) {
	must.EqOp(t, "memdb", state.NewMemDB(state.MemConfig{}).Name())
}
