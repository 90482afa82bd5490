// Package reports renders conformance results: one result model (Run: the
// runners checked, each property's verdict, seed, violation and replay
// command) and its renderings, JSON, JUnit XML, Markdown and a
// self-contained HTML page (the matrix, and per failure an SVG timeline
// of the failing run from reports/timeline); and TestParser, which reads
// the go test -json stream of the suite into the model. Every rendering
// is a pure function of the model, so the same results print byte for
// byte the same (golden files under testdata/ pin them).
package reports
