// Package redissession keeps login sessions (github.com/alexedwards/scs)
// in Redis through go-redis: a single node, a Cluster or a Sentinel master,
// the same client the server's store uses. A session is one key,
// "<prefix>session:<SHA-256 of the token>" (the token itself, which is the
// bearer's authority, is never written to Redis), holding the session's
// data and expiring with it.
//
// scs's own redisstore module works over redigo and one node only; this
// store is the few lines that work over the project's client in every
// topology.
package redissession

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/redis/go-redis/v9"
)

// Store is an scs.Store (and scs.CtxStore) in Redis.
type Store struct {
	client redis.UniversalClient
	prefix string
	now    func() time.Time
}

var _ scs.CtxStore = (*Store)(nil)

// New returns a store writing under prefix (e.g. "golf:").
func New(client redis.UniversalClient, prefix string) *Store {
	return &Store{client: client, prefix: prefix, now: time.Now}
}

func (s *Store) key(token string) string {
	sum := sha256.Sum256([]byte(token))
	return s.prefix + "session:" + hex.EncodeToString(sum[:])
}

// FindCtx returns the session's data, found false when there is none or
// it has expired.
func (s *Store) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	b, err := s.client.Get(ctx, s.key(token)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// CommitCtx stores the session's data until expiry (an expiry already past
// deletes it).
func (s *Store) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	ttl := expiry.Sub(s.now())
	if ttl < time.Millisecond {
		return s.client.Del(ctx, s.key(token)).Err()
	}
	return s.client.Set(ctx, s.key(token), b, ttl).Err()
}

// DeleteCtx removes the session (none is no error).
func (s *Store) DeleteCtx(ctx context.Context, token string) error {
	return s.client.Del(ctx, s.key(token)).Err()
}

// Find, Commit and Delete are the context-free scs.Store methods (scs
// calls the Ctx ones).
func (s *Store) Find(token string) ([]byte, bool, error) {
	return s.FindCtx(context.Background(), token)
}

func (s *Store) Commit(token string, b []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), token, b, expiry)
}

func (s *Store) Delete(token string) error {
	return s.DeleteCtx(context.Background(), token)
}
