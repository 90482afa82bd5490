// Package reports renders conformance results (terminal, Markdown, HTML,
// JUnit, JSON).
package reports
