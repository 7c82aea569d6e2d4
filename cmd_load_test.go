package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		baseline bool
	}{
		{"match play, rounds of one hole", []string{"--rooms", "2", "--players", "2", "--holes", "1"}, false},
		{"stroke play with the baseline", []string{"--rooms", "2", "--players", "3", "--baseline"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"load", "--serve", "memory", "--duration", "2s", "--json"}, tt.args...)
			r := runCmd(t, "", args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s\n%s", r.code, r.err, r.stderr)
			}
			var rep loadReport
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("report: %v\n%s", err, r.stdout)
			}
			s := rep.Server
			if s == nil || s.Moves == 0 || s.Errors != 0 || s.Ack.N == 0 || s.Update.N == 0 {
				t.Fatalf("server run: %+v", s)
			}
			if !tt.baseline {
				return
			}
			b := rep.Baseline
			if b == nil || b.Moves == 0 || b.Errors != 0 || rep.Ratio <= 0 {
				t.Fatalf("baseline run: %+v, ratio %v", b, rep.Ratio)
			}
		})
	}
}

func TestLoadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no target", nil, "either --url or --serve"},
		{"both targets", []string{"--url", "http://127.0.0.1:1", "--serve", "memory"}, "either --url or --serve"},
		{"not loopback", []string{"--url", "http://example.com:8080"}, "loopback"},
		{"bad store", []string{"--serve", "disk"}, "memory or redis"},
		{"no rooms", []string{"--serve", "memory", "--rooms", "0"}, "must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"load"}, tt.args...)...)
			if r.code != 2 || !strings.Contains(r.err, tt.want) {
				t.Errorf("load %q: exit %d, %q; want exit 2 and %q", tt.args, r.code, r.err, tt.want)
			}
		})
	}
}

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.5.0.1", true},
		{"[::1]:80", true},
		{"localhost:8080", true},
		{"10.0.0.1:8080", false},
		{"example.com", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isLoopback(tt.in); got != tt.want {
			t.Errorf("isLoopback(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseMetrics(t *testing.T) {
	in := "# HELP process_resident_memory_bytes x\nprocess_resident_memory_bytes 1.2e+07\ngo_memstats_heap_inuse_bytes 4096\nother{a=\"b\"} 3\n"
	got, err := parseMetrics(strings.NewReader(in), "process_resident_memory_bytes", "go_memstats_heap_inuse_bytes")
	if err != nil {
		t.Fatal(err)
	}
	if got["process_resident_memory_bytes"] != 1.2e7 || got["go_memstats_heap_inuse_bytes"] != 4096 || len(got) != 2 {
		t.Errorf("parseMetrics = %v", got)
	}
}
