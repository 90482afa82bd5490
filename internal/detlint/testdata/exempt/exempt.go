// Package exempt holds a test file that uses the real clock: test files are
// exempt from detlint.
package exempt
