// Command funclen lists the Go functions of the tree longer than a number
// of lines, longest first:
//
//	go run ./internal/tools/funclen [-n 100] [dir]
//
// A function's length counts the lines from its func keyword to its
// closing brace; generated files (templ's, "Code generated ... DO NOT
// EDIT.") are left out. The root package's TestTreeFunctionLengths holds
// the tree to the same count.
package main

import (
	"flag"
	"fmt"
	"os"

	"golfsolitaire/internal/funclen"
)

func main() {
	n := flag.Int("n", 100, "list functions longer than this many lines")
	flag.Parse()
	dir := "."
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	funcs, err := funclen.Walk(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "funclen:", err)
		os.Exit(1)
	}
	for _, f := range funcs {
		if f.Lines > *n {
			fmt.Printf("%4d  %s  %s:%d\n", f.Lines, f.Name, f.File, f.Line)
		}
	}
}
