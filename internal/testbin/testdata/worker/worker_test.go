// Package worker is internal/testbin's test subject: a test that prints
// what the flag -worker.mode asks for, and a benchmark that allocates.
package worker

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var mode = flag.String("worker.mode", "", "what TestWork does: lines, exit")

func TestWork(t *testing.T) {
	switch *mode {
	case "lines":
		fmt.Println("result 1")
		fmt.Println("long " + strings.Repeat("x", 5000))
		fmt.Fprintln(os.Stderr, "on stderr")
		data, err := os.ReadFile("testdata.txt") // relative: the binary runs in its package's directory
		if err != nil {
			t.Fatal(err)
		}
		fmt.Print("file " + string(data))
	case "exit":
		fmt.Println("exiting")
		os.Exit(3)
	}
}

var sink []byte

func BenchmarkAlloc(b *testing.B) {
	for range b.N {
		sink = make([]byte, 64<<20)
		for i := range sink {
			sink[i] = 1
		}
	}
}
