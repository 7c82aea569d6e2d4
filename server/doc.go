// Package server is the HTTP and WebSocket front of the game: the JSON API
// for rooms, the WebSocket endpoint that carries play, and the room hubs
// that keep each room's state on this instance in step with the store.
//
// Every room that has a client connected here has one hub: one goroutine
// that owns the room's cached state, applies commands (validated by the
// match package, then appended to the store with an expected version, so
// of several instances racing only one wins each version), receives the
// events other instances append (through the store's subscription) and
// sends each connection the view it may see. A connection has its own
// writer goroutine and a small buffer; one that cannot keep up is closed,
// never waited on.
package server
