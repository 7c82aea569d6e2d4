package server

import (
	"bufio"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCompress: a JSON body is gzipped for a client that accepts gzip (and
// not for one that does not), and an Upgrade request reaches the handler
// with a ResponseWriter it can hijack, its bytes untouched.
func TestCompress(t *testing.T) {
	t.Parallel()
	body := `{"rooms":[` + strings.Repeat(`{"code":"ABCD","seats":["Ada","Bob"]},`, 100) + `{}]}`
	h := compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			conn, rw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("hijack: %v", err)
				return
			}
			defer conn.Close()
			rw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nraw")
			rw.Flush()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	ts := httptest.NewServer(h)
	defer ts.Close()

	for _, tt := range []struct {
		accept string
		want   string
	}{{"gzip", "gzip"}, {"", ""}} {
		req, _ := http.NewRequest("GET", ts.URL+"/api/rooms", nil)
		if tt.accept != "" {
			req.Header.Set("Accept-Encoding", tt.accept)
		}
		// A transport that does not add (and undo) gzip by itself.
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		got := resp.Header.Get("Content-Encoding")
		var r io.Reader = resp.Body
		if got == "gzip" {
			if r, err = gzip.NewReader(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		b, err := io.ReadAll(r)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want || string(b) != body {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, body intact %v; want %q", tt.accept, got, string(b) == body, tt.want)
		}
	}

	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /ws HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("upgrade: status %d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}
