// Package reports renders conformance results: one result model (Run: the
// runners checked, each property's verdict, seed, violation and replay
// command) and its renderings, JSON, JUnit XML and Markdown (the HTML page
// with timelines is issue 12's next step). Every rendering is a pure
// function of the model, so the same results print byte for byte the same
// (golden files under testdata/ pin them).
package reports
