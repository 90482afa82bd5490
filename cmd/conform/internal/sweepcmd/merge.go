package sweepcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

// MergeSummary is `conform sweep merge`'s line in `conform help`.
const MergeSummary = "combine the shard summaries of one sweep: coverage of the whole range, gaps, failures"

const mergeHelp = `Usage:
  conform sweep merge [--out FILE] [--complete] SUMMARY...

Combines the summaries of one sweep's shards (conform sweep writes one
per shard): they must be of the same runner, profile, seed range and
property selection; shards may be partial, repeated or merged already.
Prints which seeds of the whole range are covered (a seed is covered when
every property checked it, or stopped before it because it failed in
that shard), the gaps, and every failure with its replay command.

Flags:
`

const mergeTail = `
Exit codes:
  0  no failure (with --complete: and every seed covered)
  1  a failure was found (with --complete: or a seed is not covered)
  2  bad usage: no file, a file that is not a sweep summary, summaries
     of different sweeps
  3  the tool itself failed

Examples:
  conform sweep merge shard-*.json
  conform sweep merge --out sweep.json --complete shard-1.json shard-2.json
`

// errMergeFailures and errIncomplete are exit code 1.
var (
	errMergeFailures = cli.Verbatim(errors.New("conform sweep merge: failures found (replay commands above)"))
	errIncomplete    = cli.Verbatim(errors.New("conform sweep merge: seeds of the range are not covered (--complete)"))
)

// Merge runs `conform sweep merge`.
func (c Config) Merge(name string, args []string, stdout, stderr io.Writer) error {
	var out string
	var complete bool
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&out, "out", "", "write the merged summary to `FILE`")
	fs.BoolVar(&complete, "complete", false, "exit 1 also when a seed of the range is not covered")
	help := cli.FlagHelp(fs, mergeHelp, mergeTail)
	// Flags may come before or after the file names.
	var paths []string
	for rest := args; ; {
		helped, err := cli.ParseFlags(fs, rest, stdout, help)
		if err != nil || helped {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(paths) == 0 {
		return cli.Usagef("name the shard summaries to merge: %s SUMMARY...", name)
	}
	files := make([]*summaryFile, len(paths))
	for i, p := range paths {
		f, err := loadSummary(p)
		if err != nil {
			return cli.Usage(err)
		}
		files[i] = f
	}
	m, err := merge(files, paths)
	if err != nil {
		return cli.Usage(err)
	}
	if out != "" {
		if err := writeSummary(out, m); err != nil {
			return err
		}
	} else {
		m.refresh()
	}
	if err := writeReport(stdout, m, c.self(), out); err != nil {
		return err
	}
	switch {
	case len(m.Failures) > 0:
		return errMergeFailures
	case complete && len(m.Gaps) > 0:
		return errIncomplete
	}
	return nil
}

// merge combines summaries of one sweep (same runner, profile, seeds and
// property selection; any shards, partial or repeated, merged ones too):
// per property the union of checked and stopped seeds and the sum of
// checks, n/a if any says so, every failure once. names name the files
// in errors.
func merge(files []*summaryFile, names []string) (*summaryFile, error) {
	if len(files) == 0 {
		return nil, errors.New("no summary to merge")
	}
	first := files[0]
	m := &summaryFile{Format: summaryFormat, Runner: first.Runner, Profile: first.Profile, Seeds: first.Seeds,
		Selection: slices.Clone(first.Selection)}
	for i, f := range files {
		if why := f.mismatch(first.identity()); why != "" {
			return nil, fmt.Errorf("%s is not part of the sweep of %s: it is for %s", names[i], names[0], why)
		}
		if f.Shard != nil {
			m.Merged = append(m.Merged, *f.Shard)
		}
		m.Merged = append(m.Merged, f.Merged...)
		m.Totals.Chunks += f.Totals.Chunks
		for _, p := range f.Properties {
			q := m.property(p.ID)
			q.Checked = union(q.Checked, p.Checked)
			q.Stopped = union(q.Stopped, p.Stopped)
			q.Checks += p.Checks
			q.addSituations(p.Situations)
			if p.Status == statusNA {
				q.Status = statusNA
			}
		}
		for _, x := range f.Failures {
			m.addFailure(x)
		}
	}
	slices.SortFunc(m.Merged, func(a, b Shard) int {
		if a.Count != b.Count {
			return a.Count - b.Count
		}
		return a.Index - b.Index
	})
	m.Merged = slices.Compact(m.Merged)
	m.refresh()
	return m, nil
}
