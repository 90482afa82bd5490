package agent_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// wantCode is the official client's error for a non-2xx reply (API-1).
func wantCode(code int, body string) string {
	return sprintf("Unexpected response code: %d (%s)", code, body)
}

// reader returns a function reading a body the official client returned.
func reader(t *testing.T) func(rc io.ReadCloser, err error) string {
	return func(rc io.ReadCloser, err error) string {
		t.Helper()
		must.NoError(t, err)
		defer rc.Close()
		b, err := io.ReadAll(rc)
		must.NoError(t, err)
		return string(b)
	}
}

// TestFSList: ls through the official client, sorted, with the alloc dir's
// file infos (ADIR-5); the root by default.
func TestFSList(t *testing.T) {
	r := newFSRig(t)
	r.write(t, "alloc/logs/web.stdout.0", "hello\n")
	r.write(t, "alloc/logs/web.stderr.0", "")

	root, _, err := r.api.AllocFS().List(local, "/", nil)
	must.NoError(t, err)
	var names []string
	for _, e := range root {
		names = append(names, e.Name)
		must.True(t, e.IsDir, must.Sprint(e.Name))
	}
	must.Eq(t, []string{"alloc", "api", "web"}, names)

	logs, _, err := r.api.AllocFS().List(local, "alloc/logs", nil)
	must.NoError(t, err)
	must.Len(t, 2, logs)
	must.Eq(t, "web.stderr.0", logs[0].Name)
	must.Eq(t, "web.stdout.0", logs[1].Name)
	must.Eq(t, int64(6), logs[1].Size)
	info, err := os.Stat(filepath.Join(r.dir.AllocDirPath(), "alloc/logs/web.stdout.0"))
	must.NoError(t, err)
	must.Eq(t, info.Mode().String(), logs[1].FileMode)
	must.Eq(t, "", logs[1].ContentType)

	empty, _, err := r.api.AllocFS().List(local, "alloc/tmp", nil)
	must.NoError(t, err)
	must.NotNil(t, empty)
	must.Len(t, 0, empty)

	code, body := r.get(t, "/v1/client/fs/ls/"+allocLocal) // no path: the root
	must.Eq(t, http.StatusOK, code)
	must.StrContains(t, body, `"Name":"alloc"`)
}

// TestFSStat: stat through the official client, with ContentType.
func TestFSStat(t *testing.T) {
	r := newFSRig(t)
	r.write(t, "alloc/logs/web.stdout.0", "hello\n")
	r.write(t, "alloc/data/conf.json", "{}")

	fi, _, err := r.api.AllocFS().Stat(local, "alloc/logs/web.stdout.0", nil)
	must.NoError(t, err)
	must.Eq(t, "web.stdout.0", fi.Name)
	must.False(t, fi.IsDir)
	must.Eq(t, int64(6), fi.Size)
	must.Eq(t, "text/plain; charset=utf-8", fi.ContentType)
	info, err := os.Stat(filepath.Join(r.dir.AllocDirPath(), "alloc/logs/web.stdout.0"))
	must.NoError(t, err)
	must.True(t, info.ModTime().Equal(fi.ModTime))

	fi, _, err = r.api.AllocFS().Stat(local, "alloc/data/conf.json", nil)
	must.NoError(t, err)
	must.Eq(t, "application/json", fi.ContentType)

	fi, _, err = r.api.AllocFS().Stat(local, "web", nil)
	must.NoError(t, err)
	must.True(t, fi.IsDir)
	must.Eq(t, "application/octet-stream", fi.ContentType)
}

// TestFSCatReadAt: cat and readat through the official client.
func TestFSCatReadAt(t *testing.T) {
	r := newFSRig(t)
	r.write(t, "web/local/out.txt", "0123456789")
	catString := reader(t)

	must.Eq(t, "0123456789", catString(r.api.AllocFS().Cat(local, "web/local/out.txt", nil)))
	must.Eq(t, "345", catString(r.api.AllocFS().ReadAt(local, "web/local/out.txt", 3, 3, nil)))
	must.Eq(t, "3456789", catString(r.api.AllocFS().ReadAt(local, "web/local/out.txt", 3, 0, nil)))
	must.Eq(t, "", catString(r.api.AllocFS().ReadAt(local, "web/local/out.txt", 20, 5, nil)))

	code, body := r.get(t, "/v1/client/fs/cat/"+allocLocal+"?path=web/local/out.txt")
	must.Eq(t, http.StatusOK, code)
	must.Eq(t, "0123456789", body)
}

// TestFSErrors: the statuses and texts of the alloc dir endpoints,
// ADIR-4's escape and secrets refusals among them.
func TestFSErrors(t *testing.T) {
	r := newFSRig(t)
	r.write(t, "web/secrets/token", "s3cret")
	r.write(t, "web/private/key", "k")
	r.write(t, "alloc/logs/web.stdout.0", "hello\n")
	must.NoError(t, os.Symlink("../secrets/token", filepath.Join(r.dir.AllocDirPath(), "web/local/tok")))
	must.NoError(t, os.Symlink("/etc", filepath.Join(r.dir.AllocDirPath(), "web/local/etc")))
	unknown := &api.Allocation{ID: "ffffffff-0000-0000-0000-000000000000"}
	remote := &api.Allocation{ID: allocRemote}
	fsys := r.api.AllocFS()
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"ls escape", func() error { _, _, err := fsys.List(local, "../", nil); return err },
			wantCode(500, "Path escapes the alloc directory")},
		{"stat escape", func() error { _, _, err := fsys.Stat(local, "alloc/../../x", nil); return err },
			wantCode(500, "Path escapes the alloc directory")},
		{"cat escape", func() error { _, err := fsys.Cat(local, "../../etc/passwd", nil); return err },
			wantCode(500, "Path escapes the alloc directory")},
		{"cat secret", func() error { _, err := fsys.Cat(local, "web/secrets/token", nil); return err },
			wantCode(500, "Reading secret file prohibited: web/secrets/token")},
		{"readat secret", func() error { _, err := fsys.ReadAt(local, "web/./secrets/token", 0, 0, nil); return err },
			wantCode(500, "Reading secret file prohibited: web/./secrets/token")},
		{"cat secret via link", func() error { _, err := fsys.Cat(local, "web/local/tok", nil); return err },
			wantCode(500, "Reading secret file prohibited: web/local/tok")},
		{"ls link escape", func() error { _, _, err := fsys.List(local, "web/local/etc", nil); return err },
			wantCode(500, "Path escapes the alloc directory")},
		{"readat private", func() error { _, err := fsys.ReadAt(local, "web/private/key", 0, 1, nil); return err },
			wantCode(500, "Reading private file prohibited: web/private/key")},
		{"cat dir", func() error { _, err := fsys.Cat(local, "alloc", nil); return err },
			wantCode(400, `file "alloc" is a directory`)},
		{"cat missing", func() error { _, err := fsys.Cat(local, "alloc/nope", nil); return err },
			"Unexpected response code: 404 (stat "},
		{"ls missing", func() error { _, _, err := fsys.List(local, "nope", nil); return err },
			"Unexpected response code: 404 ("},
		{"stat missing", func() error { _, _, err := fsys.Stat(local, "nope", nil); return err },
			"Unexpected response code: 404 ("},
		{"unknown alloc", func() error { _, _, err := fsys.List(unknown, "/", nil); return err },
			wantCode(404, `Unknown allocation "ffffffff-0000-0000-0000-000000000000"`)},
		{"remote alloc", func() error { _, err := fsys.Cat(remote, "x", nil); return err },
			wantCode(404, "No path to node")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			must.Error(t, err)
			must.StrHasPrefix(t, c.want, err.Error())
		})
	}

	raw := []struct{ target, want string }{
		{"/v1/client/fs/cat/" + allocLocal, "must provide a file name"},
		{"/v1/client/fs/readat/" + allocLocal + "?path=x&offset=-1", `failed to parse offset field to a non-negative integer: "-1"`},
		{"/v1/client/fs/readat/" + allocLocal + "?path=x&limit=ten", `failed to parse limit field to a non-negative integer: "ten"`},
		{"/v1/client/fs/stream/" + allocLocal + "?path=alloc/logs/web.stdout.0&origin=middle", "origin must be start or end"},
		{"/v1/client/fs/logs/" + allocLocal + "?type=stdout", "must provide task name"},
		{"/v1/client/fs/logs/" + allocLocal + "?task=web&type=stdlog", "must provide log type (stdout/stderr)"},
		{"/v1/client/fs/logs/" + allocLocal + "?task=nope&type=stdout", `unknown task name "nope"`},
		{"/v1/client/fs/logs/" + allocLocal + "?task=web&type=stdout&follow=maybe", `Failed to parse value of "follow" (maybe) as a bool`},
	}
	for _, c := range raw {
		code, body := r.get(t, c.target)
		must.Eq(t, http.StatusBadRequest, code, must.Sprint(c.target))
		must.StrHasPrefix(t, c.want, body, must.Sprint(c.target))
	}
	code, body := r.get(t, "/v1/client/fs/logs/"+allocLocal+"?task=api&type=stderr")
	must.Eq(t, http.StatusNotFound, code)
	must.Eq(t, `log entry for task "api" and log type "stderr" not found`, body)
	must.NoError(t, os.Symlink("../../web/secrets/token", filepath.Join(r.dir.AllocDirPath(), "alloc/logs/api.stdout.0")))
	code, body = r.get(t, "/v1/client/fs/logs/"+allocLocal+"?task=api&type=stdout")
	must.Eq(t, http.StatusInternalServerError, code)
	must.Eq(t, "Reading secret file prohibited: alloc/logs/api.stdout.0", body)

	resp, err := http.Post(r.srv.URL+"/v1/client/fs/ls/"+allocLocal, "text/plain", strings.NewReader(""))
	must.NoError(t, err)
	resp.Body.Close()
	must.Eq(t, http.StatusMethodNotAllowed, resp.StatusCode)
	for _, target := range []string{"/v1/client/fs/du/" + allocLocal, "/v1/client/fs/ls/"} {
		code, body = r.get(t, target)
		must.Eq(t, http.StatusNotFound, code, must.Sprint(target))
		must.Eq(t, "Resource not found", body, must.Sprint(target))
	}
}
