package reports

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"golang.org/x/net/html"
)

var chromiumShot = flag.String("chromium.screenshot", "", "also copy TestChromium's screenshot of the HTML report to this file")

// chromiumTimeout bounds each browser run; a healthy one takes about a
// second.
const chromiumTimeout = 60 * time.Second

// findChromium returns the first headless-capable browser on PATH.
func findChromium() (string, bool) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path, true
		}
	}
	return "", false
}

// chromium runs the browser headless on page, with a fresh profile in
// profile and extra arguments, and returns its stdout and stderr. It is
// called from goroutines, so it reports failures as errors.
func chromium(bin, profile, page string, extra ...string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile,
	}
	args = append(append(args, extra...), (&url.URL{Scheme: "file", Path: page}).String())
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	// The browser's helper processes may hold the pipes after it exits.
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, nil, fmt.Errorf("%s did not finish within %s:\n%s", bin, chromiumTimeout, errOut.String())
	case err != nil:
		return nil, nil, fmt.Errorf("%s %s: %w\n%s", bin, strings.Join(args, " "), err, errOut.String())
	}
	return out.Bytes(), errOut.Bytes(), nil
}

// TestChromium loads the HTML report in headless Chromium: a screenshot
// that is a real picture, no JavaScript or console errors, and every
// timeline drawn with state bars, as counted by the page's own script.
func TestChromium(t *testing.T) {
	bin, ok := findChromium()
	if !ok {
		msg := "no chromium, chromium-browser or google-chrome on PATH (Debian: apt-get install chromium)"
		if os.Getenv("ALLOCSIM_REQUIRE_CHROMIUM") == "1" {
			t.Fatal(msg + "; ALLOCSIM_REQUIRE_CHROMIUM=1 requires one")
		}
		t.Skip(msg + "; set ALLOCSIM_REQUIRE_CHROMIUM=1 to fail instead")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	run := htmlSample(t)
	must.NoError(t, WriteHTML(&b, run))
	must.NoError(t, os.WriteFile(page, b.Bytes(), 0o644))

	// The two runs are independent: run them side by side.
	shot := filepath.Join(dir, "report.png")
	shotProfile, domProfile := t.TempDir(), t.TempDir()
	var dom, logs []byte
	var shotErr, domErr error
	start := time.Now()
	var wg sync.WaitGroup
	wg.Go(func() {
		_, _, shotErr = chromium(bin, shotProfile, page, "--screenshot="+shot, "--window-size=1280,2400")
	})
	wg.Go(func() {
		dom, logs, domErr = chromium(bin, domProfile, page, "--dump-dom", "--enable-logging=stderr", "--v=0")
	})
	wg.Wait()
	must.NoError(t, shotErr)
	must.NoError(t, domErr)
	t.Logf("%s took %s", bin, time.Since(start).Round(time.Millisecond))

	t.Run("screenshot", func(t *testing.T) {
		raw, err := os.ReadFile(shot)
		must.NoError(t, err, must.Sprint("chromium wrote no screenshot"))
		for _, dst := range []string{filepath.Join(t.ArtifactDir(), "report.png"), *chromiumShot} {
			if dst != "" {
				must.NoError(t, os.WriteFile(dst, raw, 0o644))
				t.Logf("screenshot: %s", dst)
			}
		}
		img, err := png.Decode(bytes.NewReader(raw))
		must.NoError(t, err, must.Sprint("the screenshot is a PNG"))
		must.Eq(t, image.Rect(0, 0, 1280, 2400), img.Bounds())
		colours, inked := map[[3]uint32]bool{}, 0
		for y := 0; y < 2400; y += 3 {
			for x := 0; x < 1280; x += 3 {
				r, g, b, _ := img.At(x, y).RGBA()
				colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
				if r>>8 < 0xf0 || g>>8 < 0xf0 || b>>8 < 0xf0 {
					inked++
				}
			}
		}
		must.Greater(t, 20, len(colours), must.Sprint("a page with text, a matrix and timelines has many colours"))
		must.Greater(t, 2000, inked, must.Sprint("the page is not blank"))
		for _, c := range [][3]uint32{{0x2e, 0x9e, 0x4f}, {0xf0, 0xb4, 0x29}} {
			must.True(t, colours[c], must.Sprintf("the running and pending state colours are drawn (%x)", c))
		}
	})

	t.Run("dom", func(t *testing.T) {
		doc, err := html.Parse(bytes.NewReader(dom))
		must.NoError(t, err)
		var body *html.Node
		walk(doc, func(n *html.Node) {
			if n.Data == "body" {
				body = n
			}
		})
		must.NotNil(t, body, must.Sprintf("no body in the dumped DOM:\n%s", dom))
		must.Eq(t, "0", attr(body, "data-js-errors"), must.Sprintf("JavaScript error: %s", attr(body, "data-js-error")))
		must.Eq(t, "0", attr(body, "data-console-errors"))
		must.Eq(t, "0", attr(body, "data-empty-timelines"))
		counts := strings.Split(attr(body, "data-timelines"), ",")
		must.Len(t, 2, counts, must.Sprint("the two timelines render as svg.timeline"))
		for _, c := range counts {
			must.NotEq(t, "0", c)
		}
		for _, line := range strings.Split(string(logs), "\n") {
			if strings.Contains(line, ":CONSOLE") {
				t.Errorf("console output (the page logs nothing): %s", line)
			}
		}
	})
}
