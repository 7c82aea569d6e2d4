package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golfsolitaire/internal/funclen"
)

// TestTreeStandsAlone: the repository speaks of the product only. No file
// points outside it (a "../shared" path: whoever clones the project could
// not follow it), and none names the work sessions or tickets that made
// it by number (the word then a number), which mean nothing to a reader.
func TestTreeStandsAlone(t *testing.T) {
	t.Parallel()
	outside := regexp.MustCompile(`\.\./shared|shared/docs/`)
	diary := regexp.MustCompile(`(?i)\b(sessions?|issues?) #?[0-9]+\b`)
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "artifacts", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.ContainsRune(string(b[:min(len(b), 8000)]), 0) {
			return nil // binary
		}
		n++
		text := string(b)
		// This file holds the outside rule's own pattern.
		if strings.Contains(text, "shared") {
			if m := outside.FindString(text); m != "" && path != "tree_test.go" {
				t.Errorf("%s points outside the repository (%q)", path, m)
			}
		}
		// The pattern only where its words are: a case-folding regexp over
		// every byte of the tree cost seconds under -race.
		lower := strings.ToLower(text)
		if !strings.Contains(lower, "session") && !strings.Contains(lower, "issue") {
			return nil
		}
		if m := diary.FindString(text); m != "" {
			t.Errorf("%s names %q: say what the change does instead", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d files read", n)
	}
}

// TestTreeShape holds the tree to the size a newcomer can walk: every
// browser module (static/*.js) at most 500 lines, and at most 3 Go files in
// the root package (main.go calls the commands in cli/).
func TestTreeShape(t *testing.T) {
	t.Parallel()
	scripts, err := filepath.Glob("static/*.js")
	if err != nil || len(scripts) < 10 {
		t.Fatalf("static/*.js: %d files, %v", len(scripts), err)
	}
	for _, f := range scripts {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n > 500 {
			t.Errorf("%s has %d lines, more than 500: split it by concern", f, n)
		}
	}
	gos, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(gos) > 3 {
		t.Errorf("the root package has %d Go files (%v), more than 3: commands go in cli/", len(gos), gos)
	}
}

// TestTreeFunctionLengths holds the functions outside the tests to 100
// lines (go run ./internal/tools/funclen lists the long ones): at most two
// may be longer, the solver's hot loop among them. Test functions are not
// counted: a scenario reads best in one piece.
func TestTreeFunctionLengths(t *testing.T) {
	t.Parallel()
	funcs, err := funclen.Walk(".")
	if err != nil {
		t.Fatal(err)
	}
	var long []string
	for _, f := range funcs {
		if f.Lines <= 100 || strings.HasSuffix(f.File, "_test.go") {
			continue
		}
		long = append(long, fmt.Sprintf("%s:%d %s (%d lines)", f.File, f.Line, f.Name, f.Lines))
	}
	if len(long) > 2 {
		t.Errorf("%d functions over 100 lines, at most 2 may be:\n%s", len(long), strings.Join(long, "\n"))
	}
}
