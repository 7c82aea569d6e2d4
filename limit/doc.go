// Package limit holds the per-client limits of a server: token-bucket
// rates (Rate, ParseRate), the limits and their defaults (Limits), the
// Limiter that keeps the buckets and the SocketCounter that counts each
// client's open WebSockets, with their memory implementations (one
// instance's). The Redis implementations, which hold across every instance
// sharing the Redis, are in store/redisstore; limittest holds the
// contracts both keep. The HTTP side (naming a request's client, answering
// 429) is in server.
package limit
