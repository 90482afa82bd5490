package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// ListFlag is a repeatable flag whose values may also be comma-separated
// (--property A --property B,C): each non-empty item, in order.
type ListFlag []string

func (l *ListFlag) String() string { return strings.Join(*l, ",") }

// Set adds v's comma-separated items.
func (l *ListFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// FlagHelp is a help function for ParseFlags: head, fs's flags as
// flag.PrintDefaults prints them, then tail.
func FlagHelp(fs *flag.FlagSet, head, tail string) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprint(w, head)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		fmt.Fprint(w, tail)
	}
}
