// Package runcmd is `conform run` and `conform replay`: it turns command
// lines into suiterun plans (built-in runners by name, groups of them, a
// runner in a package), shows progress while the suite runs, prints the
// conformance matrix and every failure with a one-line replay command,
// writes the reports (Markdown, HTML with timelines, JUnit, JSON), and
// maps the outcome to conform's exit codes.
package runcmd
