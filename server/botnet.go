package server

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// botNet is how the server's own bots reach it: in memory. A bot is a
// client of the room's hub like any other (package bot, through package
// client, from its own view and with its own seat token), but its
// connection is one end of a net.Pipe whose other end this listener hands
// an http.Server serving the Server. No address is dialled, so no Host
// header or local address can send a bot, and its token, anywhere else.
type botNet struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	srv   *http.Server
	// served is closed when the http.Server has stopped serving.
	served chan struct{}
	client *http.Client
}

// botURL is the base URL bots are given; botNet ignores its host.
const botURL = "http://bots.internal"

func (s *Server) startBotNet() {
	n := &botNet{conns: make(chan net.Conn), done: make(chan struct{}), served: make(chan struct{})}
	n.srv = &http.Server{Handler: s, ErrorLog: nil}
	n.client = &http.Client{Transport: &http.Transport{DialContext: n.dial, DisableKeepAlives: true}}
	s.botNet = n
	go func() {
		defer close(n.served)
		_ = n.srv.Serve(n)
	}()
}

// stopBotNet stops serving bots (after they stopped).
func (s *Server) stopBotNet() {
	s.botNet.srv.Close()
	<-s.botNet.served
	s.botNet.client.CloseIdleConnections()
}

func (n *botNet) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	c, srv := net.Pipe()
	select {
	case n.conns <- srv:
		return c, nil
	case <-ctx.Done():
		c.Close()
		srv.Close()
		return nil, ctx.Err()
	case <-n.done:
		c.Close()
		srv.Close()
		return nil, net.ErrClosed
	}
}

// Accept, Close and Addr make botNet the http.Server's listener.
func (n *botNet) Accept() (net.Conn, error) {
	select {
	case c := <-n.conns:
		return c, nil
	case <-n.done:
		return nil, net.ErrClosed
	}
}

func (n *botNet) Close() error {
	n.once.Do(func() { close(n.done) })
	return nil
}

func (n *botNet) Addr() net.Addr { return botAddr{} }

type botAddr struct{}

func (botAddr) Network() string { return "memory" }
func (botAddr) String() string  { return "bots" }
