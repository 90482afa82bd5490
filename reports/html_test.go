package reports

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
	"golang.org/x/net/html"

	"github.com/allocsim/allocsim/reports/timeline"
)

// loadTimeline reads one of the timeline package's real artifacts and
// marks the violation line's instant, if it names one.
func loadTimeline(t testing.TB, name, violation string) *timeline.Timeline {
	t.Helper()
	dir := filepath.Join("timeline", "testdata")
	tl, err := timeline.Load(filepath.Join(dir, name+".trace.jsonl"), filepath.Join(dir, name+".scenario.json"))
	must.NoError(t, err)
	if at, ok := timeline.ViolationAt(violation); ok {
		tl.Mark(at, violation)
	}
	return tl
}

// htmlSample is sample() with timelines and artifacts on its failures,
// and a fourth runner whose failure is a real one (PAUSE-10 on
// mutant/pause-forgets-override, its shrunk run's timeline).
func htmlSample(t testing.TB) Run {
	run := sample()
	caught := run.Runners[1].Properties
	caught[0].Timeline = loadTimeline(t, "sched5_inside_windows_only", "")
	caught[0].Artifacts = []string{"/tmp/art/SCHED-5_x-seed-42.trace.jsonl", "/tmp/art/SCHED-5_x-seed-42.scenario.json"}
	caught[2].Artifacts = []string{"/tmp/art/HOOKRES-2_x-seed-7.porcupine.html", "/tmp/art/HOOKRES-2_x-seed-7.trace.jsonl"}
	violation := `sj.g[0]/work @2024-01-01T00:04:10Z (2023-12-31 19:04:10 EST America/New_York): stored pause state = "scheduled_pause", want "force_pause"`
	run.Runners = append(run.Runners, Runner{Name: "mutant/pause-forgets-override", Profile: "full", ExpectFail: true, Properties: []Property{{
		ID: "PAUSE-10/restore-overrides", Specs: []string{"PAUSE-10", "STATE-3"},
		Doc:    "a force_pause or force_run override survives a client crash and restart",
		Status: Fail, Checks: 1, Seed: 668684224263585765, Check: 1, Violation: violation,
		Message: "PAUSE-10/restore-overrides (PAUSE-10, STATE-3): ...\n--- violation\n" + violation +
			"\n--- seed\n668684224263585765 (check 1)\nTo reproduce: go test ./cmd/conform/internal/runners -conform.runner=mutant/pause-forgets-override -run '^TestSuite$/^PAUSE-10$/^restore-overrides$' -allocsim.seed=668684224263585765",
		Replay: "go test ./cmd/conform/internal/runners -conform.runner=mutant/pause-forgets-override -run '^TestSuite$/^PAUSE-10$/^restore-overrides$' -allocsim.seed=668684224263585765",
		Artifacts: []string{
			"/tmp/art/PAUSE-10_restore-overrides-seed-668684224263585765.shrunk.trace.jsonl",
			"/tmp/art/PAUSE-10_restore-overrides-seed-668684224263585765.shrunk.scenario.json",
		},
		Timeline: loadTimeline(t, "pause10_restore_overrides", violation),
	}}})
	return run
}

func TestHTMLGolden(t *testing.T) {
	var b bytes.Buffer
	must.NoError(t, WriteHTML(&b, htmlSample(t)))
	path := filepath.Join("testdata", "report.html")
	if *update {
		must.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	must.NoError(t, err, must.Sprint("run go test ./reports -update to write it"))
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("%s differs (-golden +got; go test ./reports -update rewrites it):\n%s", path, diff)
	}
	var again bytes.Buffer
	must.NoError(t, WriteHTML(&again, htmlSample(t)))
	must.Eq(t, b.String(), again.String(), must.Sprint("a rendering is a pure function of the run"))
}

// walk calls f on every element under n, in document order.
func walk(n *html.Node, f func(*html.Node)) {
	if n.Type == html.ElementNode {
		f(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return b.String()
}

// TestHTMLStructure parses the page as a browser would and checks what
// it shows: the summary worded as in Markdown, the matrix, the failures
// with escaped text, the timelines as well-formed SVG, links that stay
// inside the report.
func TestHTMLStructure(t *testing.T) {
	run := htmlSample(t)
	var b bytes.Buffer
	must.NoError(t, WriteHTML(&b, run))
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	must.NoError(t, err)

	var svgs, scripts, rows, articles []*html.Node
	var summary, title string
	var hrefs []string
	walk(doc, func(n *html.Node) {
		switch {
		case n.Data == "svg" && n.Namespace == "svg":
			svgs = append(svgs, n)
		case n.Data == "script":
			must.Eq(t, "", attr(n, "src"), must.Sprint("scripts are inline"))
			scripts = append(scripts, n)
		case n.Data == "tr" && n.Parent.Data == "tbody":
			rows = append(rows, n)
		case n.Data == "article":
			articles = append(articles, n)
		case n.Data == "p" && attr(n, "class") == "summary":
			summary = textOf(n)
		case n.Data == "title" && n.Namespace == "":
			title = textOf(n)
		case n.Data == "link" || n.Data == "img" || n.Data == "iframe":
			t.Errorf("external resource <%s>", n.Data)
		}
		if h := attr(n, "href"); h != "" {
			hrefs = append(hrefs, h)
		}
	})
	must.Eq(t, "Conformance: allocsim", title)
	var md bytes.Buffer
	must.NoError(t, WriteMarkdown(&md, run))
	mdSummary := strings.ReplaceAll(strings.Split(md.String(), "\n")[2], "`", "")
	must.Eq(t, mdSummary, summary, must.Sprint("the HTML summary is worded as the Markdown one"))
	must.Eq(t, 2, len(scripts))
	var htmlRows, mdRows []string
	for _, tr := range rows {
		var cells []string
		for td := tr.FirstChild; td != nil; td = td.NextSibling {
			cells = append(cells, textOf(td))
		}
		htmlRows = append(htmlRows, strings.Join(cells, " | "))
	}
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| `") {
			line = strings.NewReplacer("`", "", "**", "").Replace(strings.Trim(line, "| "))
			mdRows = append(mdRows, line)
		}
	}
	must.Len(t, 4, htmlRows, must.Sprint("a matrix row per runner"))
	must.Eq(t, mdRows, htmlRows, must.Sprint("the HTML matrix says what the Markdown one says"))
	must.Eq(t, 3, len(articles), must.Sprint("one article per failure or harness error"))
	must.StrContains(t, textOf(articles[0]), `want at 09:00 <"quoted" & escaped>`)
	must.StrContains(t, textOf(articles[0]), "with ]]> in it")
	must.StrNotContains(t, b.String(), `<"quoted"`, must.Sprint("text is escaped"))
	must.StrContains(t, textOf(articles[1]), "history visualization")

	for _, h := range hrefs {
		must.True(t, strings.HasPrefix(h, "#") || strings.HasPrefix(h, "artifacts/"), must.Sprintf("link %q leaves the report", h))
	}
	must.SliceContains(t, hrefs, "artifacts/HOOKRES-2_x-seed-7.porcupine.html")

	must.Eq(t, 2, len(svgs), must.Sprint("two properties have timelines"))
	must.Eq(t, 2, strings.Count(b.String(), "<svg "))
	for _, svg := range svgs {
		var out bytes.Buffer
		must.NoError(t, html.Render(&out, svg))
		states := 0
		dec := xml.NewDecoder(&out)
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			must.NoError(t, err, must.Sprint("an inline SVG is well-formed XML"))
			if el, ok := tok.(xml.StartElement); ok {
				for _, a := range el.Attr {
					if a.Name.Local == "class" && strings.HasPrefix(a.Value, "state ") {
						states++
					}
				}
			}
		}
		must.Positive(t, states, must.Sprint("a timeline has state bars"))
	}
}

func TestHTMLWriteError(t *testing.T) {
	must.ErrorContains(t, WriteHTML(failingWriter{}, htmlSample(t)), "disk full")
}
