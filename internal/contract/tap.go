package contract

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Tap wraps a server's handler for a test: every HTTP answer it gives is
// validated against docs/openapi.yaml, and every WebSocket frame it sends
// against docs/asyncapi.yaml. What does not validate fails the test when
// it ends (a frame may be written after the test's last line).
func Tap(t testing.TB, h http.Handler) http.Handler {
	t.Helper()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tp := &tap{c: c, h: h, seed: maphash.MakeSeed()}
	t.Cleanup(func() {
		tp.mu.Lock()
		defer tp.mu.Unlock()
		for _, e := range tp.errs {
			t.Errorf("contract: %v", e)
		}
		tp.done = true
	})
	return tp
}

type tap struct {
	c    *Contract
	h    http.Handler
	mu   sync.Mutex
	errs []error
	done bool
	// seen holds the hashes of the frames validated already: a frame
	// sent to many connections (spectators, two sockets of a seat) is
	// validated once.
	seenMu sync.Mutex
	seen   map[uint64]struct{}
	seed   maphash.Seed
}

// validateFrame validates a frame the server sent, once per distinct frame.
func (tp *tap) validateFrame(socket string, frame []byte) {
	h := maphash.Bytes(tp.seed, frame) ^ uint64(len(socket))
	tp.seenMu.Lock()
	_, ok := tp.seen[h]
	if !ok {
		if tp.seen == nil || len(tp.seen) > 1<<16 {
			tp.seen = map[uint64]struct{}{}
		}
		tp.seen[h] = struct{}{}
	}
	tp.seenMu.Unlock()
	if ok {
		return
	}
	if err := tp.c.ValidateFrame(socket, Send, frame); err != nil {
		tp.fail(err)
	}
}

func (tp *tap) fail(err error) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if !tp.done && len(tp.errs) < 20 {
		tp.errs = append(tp.errs, err)
	}
}

func (tp *tap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		socket := RoomSocket
		if r.URL.Path == "/ws/tournament" {
			socket = TournamentSocket
		}
		rw := &hijackWriter{ResponseWriter: w, tp: tp, socket: socket}
		tp.h.ServeHTTP(rw, r)
		if !rw.hijacked {
			// A refused upgrade is an HTTP answer like any other.
			tp.check(r, rw.status, w.Header(), rw.body.Bytes())
		}
		return
	}
	rec := &recordWriter{ResponseWriter: w}
	tp.h.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	tp.check(r, rec.status, w.Header(), rec.body.Bytes())
}

func (tp *tap) check(r *http.Request, status int, header http.Header, body []byte) {
	if status == 0 {
		status = http.StatusOK
	}
	if header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			tp.fail(fmt.Errorf("%s %s: gzip: %w", r.Method, r.URL.Path, err))
			return
		}
		if body, err = io.ReadAll(zr); err != nil {
			tp.fail(fmt.Errorf("%s %s: gzip: %w", r.Method, r.URL.Path, err))
			return
		}
	}
	err := tp.c.ValidateResponse(r, status, header, body)
	if errors.Is(err, ErrNoRoute) && (status == http.StatusNotFound || status == http.StatusMethodNotAllowed) {
		// No such route: the mux's catch-all answers (documented as
		// such in docs/openapi.yaml's description).
		return
	}
	if err != nil {
		tp.fail(fmt.Errorf("%s %s -> %d: %w", r.Method, r.URL.RequestURI(), status, err))
	}
}

// recordWriter keeps an answer's status and body as it goes through.
type recordWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *recordWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.body.Len() < 4<<20 {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

func (w *recordWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *recordWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// hijackWriter taps a WebSocket's connection once hijacked.
type hijackWriter struct {
	http.ResponseWriter
	tp       *tap
	socket   string
	hijacked bool
	status   int
	body     bytes.Buffer
}

func (w *hijackWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *hijackWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *hijackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("contract: the response cannot be hijacked")
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.hijacked = true
	if err := brw.Writer.Flush(); err != nil {
		return nil, nil, err
	}
	tc := &tapConn{Conn: conn, tp: w.tp, socket: w.socket}
	return tc, bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(tc, brw.Writer.Size())), nil
}

// tapConn parses the frames the server writes (unmasked, uncompressed:
// the server does not negotiate compression) and validates each text
// message.
type tapConn struct {
	net.Conn
	tp     *tap
	socket string
	mu     sync.Mutex
	buf    []byte
	part   []byte
}

func (c *tapConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.feed(p)
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *tapConn) feed(p []byte) {
	c.buf = append(c.buf, p...)
	for len(c.buf) >= 2 {
		fin, op := c.buf[0]&0x80 != 0, c.buf[0]&0x0f
		if c.buf[0]&0x70 != 0 {
			c.tp.fail(errors.New("a compressed or extended WebSocket frame: the tap cannot read it"))
			c.buf = nil
			return
		}
		n, h := uint64(c.buf[1]&0x7f), 2
		switch n {
		case 126:
			if len(c.buf) < 4 {
				return
			}
			n, h = uint64(binary.BigEndian.Uint16(c.buf[2:])), 4
		case 127:
			if len(c.buf) < 10 {
				return
			}
			n, h = binary.BigEndian.Uint64(c.buf[2:]), 10
		}
		if c.buf[1]&0x80 != 0 {
			h += 4
		}
		if uint64(len(c.buf)-h) < n {
			return
		}
		payload := c.buf[h : h+int(n)]
		if op < 8 {
			c.part = append(c.part, payload...)
			if fin {
				c.tp.validateFrame(c.socket, c.part)
				c.part = c.part[:0]
			}
		}
		c.buf = c.buf[h+int(n):]
	}
	if len(c.buf) == 0 {
		c.buf = nil
	}
}
