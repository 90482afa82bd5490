// Command sizelint fails when a file tracked by git is larger than a limit
// (make lint: 1 MiB), so a stray binary, trace or corpus is caught before
// it lands in history. It lists the tracked files with git ls-files (the
// index: committed and staged files), skips those missing from the work
// tree and those that are not regular files (symlinks, submodules), and
// compares each one's size on disk.
//
// Usage:
//
//	go run ./internal/sizelint [-max BYTES] [DIR]
//
// DIR is any directory in the work tree (default "."). It prints one line
// per file over the limit, path: size, and exits 1 if there is any, 2 if
// it cannot list or stat the files (git missing or DIR not in a work tree
// is an error, not a pass).
package main
