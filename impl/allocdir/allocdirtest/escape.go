package allocdirtest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
)

// fsOps runs every FS method of ADIR-4 on path and returns their errors by
// operation name.
func fsOps(a interfaces.AllocDir, path string) map[string]error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, list := a.List(path)
	_, stat := a.Stat(path)
	rc, read := a.ReadAt(path, 0)
	if rc != nil {
		rc.Close()
	}
	_, block := a.BlockUntilExists(ctx, path)
	_, changes := a.ChangeEvents(ctx, path, 0)
	return map[string]error{
		fmt.Sprintf("List(%q)", path):                  list,
		fmt.Sprintf("Stat(%q)", path):                  stat,
		fmt.Sprintf("ReadAt(%q, 0)", path):             read,
		fmt.Sprintf("BlockUntilExists(ctx, %q)", path): block,
		fmt.Sprintf("ChangeEvents(ctx, %q, 0)", path):  changes,
	}
}

// wantEscape requires every FS method to refuse path with the exact
// ADIR-4 message.
func (r *report) wantEscape(a interfaces.AllocDir, path string) {
	ops := fsOps(a, path)
	for _, op := range slices.Sorted(maps.Keys(ops)) {
		r.wantErr(op, ops[op], allocdir.MsgPathEscapes)
	}
}

// checkEscapeLexical: a path that leaves the alloc dir after cleaning is
// refused; "..name" and absolute paths stay inside (ADIR-4).
func checkEscapeLexical(e *env) error {
	r := &report{}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	if err := e.factory("a2").Build(); err != nil {
		return fmt.Errorf("setup: Build() = %w", err)
	}
	for _, p := range []string{"..", "../", "../a2", "./../a2/alloc", "alloc/../..", "alloc/data/../../../a2", "../../../../../etc/passwd"} {
		r.wantEscape(a, p)
	}
	if err := a.files("..name", "inside", "alloc/data/f", "f"); err != nil {
		return err
	}
	r.wantContent(a, "..name", 0, "inside")
	r.wantContent(a, "/alloc/data/f", 0, "f")
	r.wantContent(a, "alloc/../alloc/./data/f", 0, "f")
	return r.err()
}

// checkEscapeSymlink: a path that resolves through symlinks outside the
// alloc dir is refused, a link chain included; one that leaves and comes
// back is inside (ADIR-4).
func checkEscapeSymlink(e *env) error {
	r := &report{}
	peer, err := e.alloc("a2")
	if err != nil {
		return err
	}
	if err := peer.files("alloc/data/secret", "peer secret"); err != nil {
		return err
	}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	if err := a.files(
		"alloc/data/in.txt", "in",
		"alloc/data/up", "->../../..",
		"alloc/data/peer", "->../../../a2/alloc/data/secret",
		"alloc/data/peerdir", "->../../../a2/alloc/data",
		"alloc/data/rootlink", "->/",
		"alloc/data/chain", "->up",
		"alloc/data/logs", "->../logs",
	); err != nil {
		return err
	}
	for _, p := range []string{
		"alloc/data/up", "alloc/data/peer", "alloc/data/peerdir", "alloc/data/peerdir/secret",
		"alloc/data/rootlink", "alloc/data/chain", "alloc/data/chain/a2", "alloc/data/up/a2/alloc",
	} {
		r.wantEscape(a, p)
	}
	r.wantContent(a, "alloc/data/up/a1/alloc/data/in.txt", 0, "in")
	r.wantNames(a, "alloc/data/logs")
	return r.err()
}

// checkEscapeSibling: the resolved path must be below the alloc dir, not
// merely share its prefix: <root>/a1x is outside <root>/a1 (ADIR-4).
func checkEscapeSibling(e *env) error {
	r := &report{}
	sib, err := e.alloc("a1x")
	if err != nil {
		return err
	}
	if err := sib.files("alloc/data/f", "sibling"); err != nil {
		return err
	}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	if err := a.files("alloc/data/sib", "->../../../a1x/alloc/data/f", "alloc/data/sibdir", "->../../../a1x"); err != nil {
		return err
	}
	r.wantEscape(a, "alloc/data/sib")
	r.wantEscape(a, "alloc/data/sibdir/alloc")
	return r.err()
}

// checkEscapeNonExistent: a path that does not exist passes the check,
// even a dangling link pointing outside, and fails as missing (ADIR-4).
func checkEscapeNonExistent(e *env) error {
	r := &report{}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	if err := a.files("alloc/data/dangle", "->../../../nowhere"); err != nil {
		return err
	}
	for _, p := range []string{"alloc/data/missing", "nope/deeper", "alloc/data/dangle"} {
		ops := fsOps(a, p)
		for _, op := range slices.Sorted(maps.Keys(ops)) {
			if strings.HasPrefix(op, "BlockUntilExists") {
				r.wantNil(op, ops[op])
				continue
			}
			r.wantNotExist(op, ops[op])
		}
	}
	return r.err()
}

// checkEscapeCheckFails: a symlink loop makes the check itself fail
// (ADIR-4).
func checkEscapeCheckFails(e *env) error {
	r := &report{}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	if err := a.files("alloc/data/loop", "->loop", "alloc/data/ping", "->pong", "alloc/data/pong", "->ping"); err != nil {
		return err
	}
	const prefix = "Failed to check if path escapes alloc directory: "
	for _, p := range []string{"alloc/data/loop", "alloc/data/ping", "alloc/data/pong/x"} {
		ops := fsOps(a, p)
		for _, op := range slices.Sorted(maps.Keys(ops)) {
			r.wantErrPrefix(op, ops[op], prefix)
		}
	}
	return r.err()
}

// checkSecrets: ReadAt refuses a registered task's secrets and private
// dirs by case-insensitive string prefix, echoing the path as given;
// Stat and List may look (ADIR-4).
func checkSecrets(e *env) error {
	r := &report{}
	a, err := e.alloc("a1", "web", "api")
	if err != nil {
		return err
	}
	if err := a.files("web/secrets/token", "tok", "web/private/key", "key", "web/local/ok", "ok",
		"web/secrets-old/", "", "web/secrets-old/f", "old", "api/secrets/t", "t"); err != nil {
		return err
	}
	for _, c := range []struct{ path, kind string }{
		{"web/secrets/token", "secret"},
		{"web/secrets", "secret"},
		{"web/private/key", "private"},
		{"WEB/SECRETS/token", "secret"},
		{"web/Private/key", "private"},
		{"/web/secrets/token", "secret"},
		{"web/local/../secrets/token", "secret"},
		{"web/secrets-old/f", "secret"},
		{"api/secrets/t", "secret"},
		{"api/secrets/missing", "secret"},
	} {
		_, err := a.ReadAt(c.path, 0)
		r.wantErr(fmt.Sprintf("ReadAt(%q, 0)", c.path), err, fmt.Sprintf("Reading %s file prohibited: %s", c.kind, c.path))
	}
	r.wantContent(a, "web/local/ok", 0, "ok")
	if fi, err := a.Stat("web/secrets/token"); err != nil || fi == nil || fi.Size != 3 {
		r.add("Stat(%q) = %+v, %v, want a 3-byte file: only ReadAt is refused", "web/secrets/token", fi, err)
	}
	r.wantNames(a, "web/secrets", "token")
	return r.err()
}

// checkSecretsViaSymlink: a symlink into a secrets or private dir does not
// launder it: the resolved path is checked too (ADIR-4).
func checkSecretsViaSymlink(e *env) error {
	r := &report{}
	a, err := e.alloc("a1", "web")
	if err != nil {
		return err
	}
	if err := a.files("web/secrets/token", "tok", "web/private/key", "key",
		"alloc/data/tok", "->../../web/secrets/token", "alloc/data/webdir", "->../../web"); err != nil {
		return err
	}
	_, err = a.ReadAt("alloc/data/tok", 0)
	r.wantErr(`ReadAt("alloc/data/tok", 0)`, err, "Reading secret file prohibited: alloc/data/tok")
	_, err = a.ReadAt("alloc/data/webdir/private/key", 0)
	r.wantErr(`ReadAt("alloc/data/webdir/private/key", 0)`, err, "Reading private file prohibited: alloc/data/webdir/private/key")
	return r.err()
}
