package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"regexp"
	"strings"
)

// WriteHTML writes run as one self-contained HTML page (inline style and
// script, no external resources): the summary, the conformance matrix
// (runner x SPEC area), then, per runner, each failure with its property,
// SPEC IDs, seed, violation, replay command, failure message, timeline
// (when the property has one) and links to its artifacts (a relative
// path as it is, else under artifacts/; a porcupine history
// visualization first).
//
// The page's script records JavaScript errors and console.error calls in
// the body's data-js-errors and data-console-errors attributes, and the
// number of state bars of each timeline in data-timelines (and how many
// have none in data-empty-timelines), so a headless browser can check
// the page.
func WriteHTML(w io.Writer, run Run) error {
	v, err := htmlViewOf(run)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := htmlPage.Execute(&b, v); err != nil {
		return fmt.Errorf("render html report: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// htmlView is what the page template reads.
type htmlView struct {
	Suite, Commit string
	Met, Total    int
	Areas         []string
	Rows          []htmlRow
	Runners       []htmlRunner
}

type htmlRow struct {
	Name, Profile, Expected string
	Met                     bool
	Anchor                  string
	Cells                   []htmlCell
}

// htmlCell is an area status in the matrix: an area not run is a dash,
// as in Markdown.
type htmlCell struct {
	Status      Status
	Text, Class string
}

type htmlRunner struct {
	Name, Anchor  string
	Failed, Total int
	Failures      []htmlFailure
}

type htmlFailure struct {
	Property
	Anchor, Class string
	// SVG is the property's timeline, drawn.
	SVG            template.HTML
	Visualizations []htmlLink
	Artifacts      []htmlLink
}

type htmlLink struct{ Name, Href string }

func htmlViewOf(run Run) (htmlView, error) {
	v := htmlView{Suite: run.Suite, Commit: run.Commit, Total: len(run.Runners), Areas: run.Areas()}
	for _, r := range run.Runners {
		if r.MeetsExpectation() {
			v.Met++
		}
		fails := r.Failures()
		row := htmlRow{Name: r.Name, Profile: r.Profile, Expected: expectation(r), Met: r.MeetsExpectation()}
		for _, a := range v.Areas {
			st := r.AreaStatus(a)
			cell := htmlCell{Status: st, Text: string(st), Class: statusClass(st)}
			if st == NotRun {
				cell.Text = "–"
			}
			row.Cells = append(row.Cells, cell)
		}
		if len(fails) > 0 {
			row.Anchor = anchor("runner", r.Name)
			hr := htmlRunner{Name: r.Name, Anchor: row.Anchor, Failed: len(fails), Total: len(r.Properties)}
			for _, p := range fails {
				f, err := htmlFailureOf(r, p)
				if err != nil {
					return htmlView{}, err
				}
				hr.Failures = append(hr.Failures, f)
			}
			v.Runners = append(v.Runners, hr)
		}
		v.Rows = append(v.Rows, row)
	}
	return v, nil
}

func htmlFailureOf(r Runner, p Property) (htmlFailure, error) {
	f := htmlFailure{Property: p, Anchor: anchor(r.Name, p.ID), Class: statusClass(p.Status)}
	for _, path := range p.Artifacts {
		// A relative path (conform run writes them relative to the
		// report's directory) is the link; anything else is looked for
		// under artifacts/.
		name := filepath.Base(path)
		href := "artifacts/" + name
		if rel := filepath.ToSlash(path); !filepath.IsAbs(path) && filepath.IsLocal(path) {
			href = rel
		}
		link := htmlLink{Name: name, Href: href}
		if strings.HasSuffix(name, ".porcupine.html") {
			f.Visualizations = append(f.Visualizations, link)
		}
		f.Artifacts = append(f.Artifacts, link)
	}
	if p.Timeline != nil {
		var b bytes.Buffer
		if err := p.Timeline.WriteSVG(&b); err != nil {
			return htmlFailure{}, fmt.Errorf("html report: timeline of %s %s: %w", r.Name, p.ID, err)
		}
		// The SVG is our own output, every text in it escaped.
		f.SVG = template.HTML(b.String())
	}
	return f, nil
}

// statusClass is a status's CSS class ("n/a" has a slash).
func statusClass(s Status) string {
	return "status-" + strings.ReplaceAll(strings.ReplaceAll(string(s), "/", ""), " ", "-")
}

var anchorUnsafe = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// anchor is an element ID made of parts ("mutant/sched-utc",
// "SCHED-5/x" gives "mutant-sched-utc--SCHED-5-x").
func anchor(parts ...string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = strings.Trim(anchorUnsafe.ReplaceAllString(p, "-"), "-")
	}
	return strings.Join(out, "--")
}

var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"join": strings.Join,
}).Parse(pageTemplate))

const pageTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance: {{.Suite}}</title>
<style>
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px;color:#24292e;max-width:1240px}
h1{font-size:24px}h2{font-size:19px;margin-top:32px;border-bottom:1px solid #e1e4e8}h3{font-size:16px}
code,pre{font-family:SFMono-Regular,Consolas,"Liberation Mono",Menlo,monospace;font-size:12px}
pre{background:#f6f8fa;padding:8px 12px;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
table.matrix{border-collapse:collapse;margin:12px 0}
table.matrix th,table.matrix td{border:1px solid #d1d5da;padding:4px 10px;text-align:left}
table.matrix th{background:#f6f8fa}
.status-pass{background:#dcffe4}.status-fail{background:#ffdce0}.status-error{background:#ffc6a8}
.status-na,.status-not-run{color:#6a737d}
td.met{color:#22863a}td.unmet{color:#cb2431;font-weight:bold}
article.failure{border:1px solid #e1e4e8;border-radius:6px;padding:4px 16px 12px;margin:16px 0}
dl{display:grid;grid-template-columns:max-content auto;gap:4px 16px}dt{font-weight:bold}dd{margin:0}
dd.violation{color:#b31d28}
p.visualization a{font-weight:bold}
figure.timeline{margin:12px 0;overflow-x:auto}
figure.timeline svg{max-width:100%;height:auto}
ul.artifacts{columns:2}
</style>
<script>
var pageErrors = {js: 0, console: 0, last: ""};
function recordPageErrors() {
  if (!document.body) { return; }
  document.body.setAttribute("data-js-errors", String(pageErrors.js));
  document.body.setAttribute("data-console-errors", String(pageErrors.console));
  if (pageErrors.last) { document.body.setAttribute("data-js-error", pageErrors.last); }
}
window.onerror = function (msg) { pageErrors.js++; pageErrors.last = String(msg); recordPageErrors(); };
(function () {
  var consoleError = console.error;
  console.error = function () {
    pageErrors.console++;
    recordPageErrors();
    return consoleError.apply(console, arguments);
  };
})();
</script>
</head>
<body>
<h1>Conformance: {{.Suite}}</h1>
<p class="summary">{{if .Commit}}Commit <code>{{.Commit}}</code>. {{end}}{{.Met}} of {{.Total}} runners met their expectation (to conform, or for a runner expected to fail, such as a mutant, to fail).</p>
<table class="matrix">
<thead><tr><th>runner</th><th>profile</th><th>expected</th><th>met</th>{{range .Areas}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr><td>{{if .Anchor}}<a href="#{{.Anchor}}"><code>{{.Name}}</code></a>{{else}}<code>{{.Name}}</code>{{end}}</td><td>{{.Profile}}</td><td>{{.Expected}}</td>{{if .Met}}<td class="met">yes</td>{{else}}<td class="unmet">no</td>{{end}}{{range .Cells}}<td class="{{.Class}}" title="{{.Status}}">{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
{{- range .Runners}}
<section class="runner" id="{{.Anchor}}">
<h2><code>{{.Name}}</code>: {{.Failed}} of {{.Total}} properties failed</h2>
{{- range .Failures}}
<article class="failure" id="{{.Anchor}}">
<h3>{{.ID}} <span class="{{.Class}}">{{.Status}}</span></h3>
<dl>
{{- if .Specs}}
<dt>SPEC</dt><dd>{{join .Specs ", "}}</dd>
{{- end}}
{{- if .Doc}}
<dt>property</dt><dd>{{.Doc}}</dd>
{{- end}}
{{- if .Seed}}
<dt>seed</dt><dd><code>{{.Seed}}</code>, check {{.Check}}</dd>
{{- end}}
<dt>violation</dt><dd class="violation">{{.Violation}}</dd>
</dl>
{{- if .Replay}}
<p>Replay:</p>
<pre><code class="replay">{{.Replay}}</code></pre>
{{- end}}
{{- range .Visualizations}}
<p class="visualization"><a href="{{.Href}}">history visualization</a> <code>{{.Name}}</code></p>
{{- end}}
{{- if .SVG}}
<figure class="timeline">
{{.SVG}}</figure>
{{- end}}
{{- if .Message}}
<details open><summary>failure message</summary>
<pre class="message">{{.Message}}</pre>
</details>
{{- end}}
{{- with .Artifacts}}
<p>Artifacts:</p>
<ul class="artifacts">
{{- range .}}
<li><a href="{{.Href}}">{{.Name}}</a></li>
{{- end}}
</ul>
{{- end}}
</article>
{{- end}}
</section>
{{- end}}
<script>
(function () {
  var counts = [];
  document.querySelectorAll("svg.timeline").forEach(function (svg) {
    counts.push(svg.querySelectorAll(".state").length);
  });
  document.body.setAttribute("data-timelines", counts.join(","));
  document.body.setAttribute("data-empty-timelines", String(counts.filter(function (n) { return n === 0; }).length));
  recordPageErrors();
})();
</script>
</body>
</html>
`
