package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Bolt file constants (STATE-1).
const (
	// FileName is the bbolt file inside BoltConfig.Dir.
	FileName = "state.db"
	// FileMode is the bbolt file's permission bits.
	FileMode os.FileMode = 0o600
	// DefaultOpenTimeout bounds the wait for the file lock when another
	// process holds the file. bbolt measures it with the real clock, which
	// is acceptable here: this is the production adapter, and the simulator
	// uses the memory store.
	DefaultOpenTimeout = 5 * time.Second
)

// BoltConfig configures OpenBolt.
type BoltConfig struct {
	// Dir holds FileName; it is created (mode 0700) if missing. Required.
	Dir string
	// OpenTimeout bounds the wait for the file lock; zero means
	// DefaultOpenTimeout.
	OpenTimeout time.Duration
	// FaultHook, if non-nil, is consulted before every write (STATE-1).
	FaultHook FaultHook
	// BatchHook, if non-nil, runs when a Batch begins.
	BatchHook BatchHook
	// NoSync skips the fsync of each commit. Writes still reach the OS
	// before a write returns, so they survive a process kill, but not a
	// power loss. For tests only; production leaves it false.
	NoSync bool
}

// OpenBolt opens (creating on first use) the bbolt state DB in cfg.Dir. It
// writes meta/version on first open and refuses a file whose version is
// newer than SchemaVersion (ErrSchemaTooNew) or unreadable (ErrBadSchema).
// Undecodable allocs never fail the open (STATE-3).
func OpenBolt(cfg BoltConfig) (*DB, error) {
	be, err := openBolt(cfg)
	if err != nil {
		return nil, err
	}
	return newDB(be, cfg.FaultHook, cfg.BatchHook), nil
}

// boltBackend stores values in a bbolt file; every write is one committed
// (fsynced unless NoSync) read-write transaction.
type boltBackend struct {
	db     *bbolt.DB
	cfg    BoltConfig
	closed atomic.Bool
}

func openBolt(cfg BoltConfig) (*boltBackend, error) {
	if cfg.Dir == "" {
		return nil, fmt.Errorf("open state db: %w: dir is empty", ErrInvalidArgument)
	}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("open state db: create dir: %w", err)
	}
	path := filepath.Join(cfg.Dir, FileName)
	timeout := cfg.OpenTimeout
	if timeout <= 0 {
		timeout = DefaultOpenTimeout
	}
	db, err := bbolt.Open(path, FileMode, &bbolt.Options{Timeout: timeout, NoSync: cfg.NoSync})
	if err != nil {
		return nil, fmt.Errorf("open state db %s: %w", path, err)
	}
	if err := db.Update(initSchema); err != nil {
		_ = db.Close() // the schema error is the one to report
		return nil, fmt.Errorf("open state db %s: %w", path, err)
	}
	return &boltBackend{db: db, cfg: cfg}, nil
}

// initSchema creates the top buckets and checks or writes meta/version.
func initSchema(tx *bbolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists([]byte(BucketMeta))
	if err != nil {
		return err
	}
	if raw := meta.Get([]byte(KeyVersion)); raw != nil {
		var v int
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("%w: %q: %w", ErrBadSchema, raw, err)
		}
		switch {
		case v > SchemaVersion:
			return fmt.Errorf("%w: file has version %d, this build supports %d", ErrSchemaTooNew, v, SchemaVersion)
		case v < 1:
			return fmt.Errorf("%w: %d", ErrBadSchema, v)
		}
	} else {
		raw, _ := json.Marshal(SchemaVersion) // an int always encodes
		if err := meta.Put([]byte(KeyVersion), raw); err != nil {
			return err
		}
	}
	_, err = tx.CreateBucketIfNotExists([]byte(BucketAllocations))
	return err
}

func (b *boltBackend) name() string   { return "boltdb" }
func (b *boltBackend) isClosed() bool { return b.closed.Load() }

// bucket returns the alloc's bucket, or its task's bucket when task is not
// empty; with create it makes missing buckets, else it returns nil for them.
func bucket(tx *bbolt.Tx, allocID, task string, create bool) (*bbolt.Bucket, error) {
	top := tx.Bucket([]byte(BucketAllocations))
	if top == nil {
		return nil, fmt.Errorf("%w: no %s bucket", ErrCorrupt, BucketAllocations)
	}
	names := [][]byte{[]byte(allocID)}
	if task != "" {
		names = append(names, []byte(TaskBucketPrefix+task))
	}
	b := top
	for _, n := range names {
		if !create {
			if b = b.Bucket(n); b == nil {
				return nil, nil
			}
			continue
		}
		var err error
		if b, err = b.CreateBucketIfNotExists(n); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (b *boltBackend) put(allocID, task, key string, val value, _ bool) error { // bbolt copies val at commit, before put returns
	enc := val.bytes()
	return b.update(func(tx *bbolt.Tx) error {
		bkt, err := bucket(tx, allocID, task, true)
		if err != nil {
			return err
		}
		return bkt.Put([]byte(key), enc)
	})
}

func (b *boltBackend) get(allocID, task string, keys ...string) ([][]byte, error) {
	out := make([][]byte, len(keys))
	err := b.view(func(tx *bbolt.Tx) error {
		bkt, err := bucket(tx, allocID, task, false)
		if err != nil || bkt == nil {
			return err
		}
		for i, k := range keys {
			out[i] = bytes.Clone(bkt.Get([]byte(k))) // valid only inside the tx
		}
		return nil
	})
	return out, err
}

func (b *boltBackend) allocEntries() ([]rawAlloc, error) {
	var out []rawAlloc
	err := b.view(func(tx *bbolt.Tx) error {
		top := tx.Bucket([]byte(BucketAllocations))
		if top == nil {
			return fmt.Errorf("%w: no %s bucket", ErrCorrupt, BucketAllocations)
		}
		c := top.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v != nil {
				continue // a plain key, not an alloc bucket
			}
			val := top.Bucket(k).Get([]byte(KeyAlloc))
			out = append(out, rawAlloc{id: string(k), val: bytes.Clone(val)})
		}
		return nil
	})
	return out, err
}

func (b *boltBackend) deleteTask(allocID, task string) error {
	return b.update(func(tx *bbolt.Tx) error {
		bkt, err := bucket(tx, allocID, "", false)
		if err != nil || bkt == nil {
			return err
		}
		return ignoreNotFound(bkt.DeleteBucket([]byte(TaskBucketPrefix + task)))
	})
}

func (b *boltBackend) deleteAlloc(allocID string) error {
	return b.update(func(tx *bbolt.Tx) error {
		top := tx.Bucket([]byte(BucketAllocations))
		if top == nil {
			return nil
		}
		return ignoreNotFound(top.DeleteBucket([]byte(allocID)))
	})
}

func ignoreNotFound(err error) error {
	if errors.Is(err, bolterrors.ErrBucketNotFound) {
		return nil
	}
	return err
}

func (b *boltBackend) close() error {
	if b.closed.Swap(true) {
		return nil
	}
	if err := b.db.Close(); err != nil {
		return fmt.Errorf("close state db %s: %w", b.db.Path(), err)
	}
	return nil
}

func (b *boltBackend) reopen() (backend, error) {
	if err := b.close(); err != nil {
		return nil, err
	}
	return openBolt(b.cfg)
}

func (b *boltBackend) update(fn func(*bbolt.Tx) error) error {
	return closedErr(b.db.Update(fn))
}

func (b *boltBackend) view(fn func(*bbolt.Tx) error) error {
	return closedErr(b.db.View(fn))
}

// closedErr maps bbolt's "not open" to ErrClosed.
func closedErr(err error) error {
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	return err
}
