package server

import (
	"bufio"
	"net"
	"net/http"
	"sync"
)

// corkWriter hands coder/websocket a connection it can cork (corkConn)
// when it hijacks the request's: the socket's writer sends every frame
// queued at one moment (an event and its mover's ack, a burst of events)
// in one write(2) instead of one each. The bytes on the wire are the same.
type corkWriter struct {
	http.ResponseWriter
	conn *corkConn
}

// Unwrap is the ResponseWriter corkWriter wraps.
func (w *corkWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack hijacks the request's connection and returns it corkable.
func (w *corkWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.conn = &corkConn{Conn: c}
	// The server's own writer for the connection (4 kB, unused once
	// hijacked) now writes to the corkable one: a second buffer a socket
	// would be 4 kB more of every connection's memory.
	brw.Writer.Reset(w.conn)
	return w.conn, brw, nil
}

// corkConn is a net.Conn whose writes, while it is corked, are kept until
// it is uncorked and then written at once.
type corkConn struct {
	net.Conn
	mu     sync.Mutex
	corked bool
	buf    []byte
}

func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// cork keeps the writes that follow until uncork.
func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// uncork writes what was kept (under the connection's write deadline)
// and lets later writes through.
func (c *corkConn) uncork() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.Conn.Write(c.buf)
	if cap(c.buf) > 64<<10 {
		c.buf = nil
	} else {
		c.buf = c.buf[:0]
	}
	return err
}
