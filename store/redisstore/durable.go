package redisstore

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// durable runs a room's script; with Options.WaitReplicas it sends WAIT
// right after it, in one pipeline on one connection to the master of the
// room's slot (WAIT waits for the writes of its own connection), and
// fails unless enough replicas confirm.
func (s *Store) durable(ctx context.Context, script *redis.Script, keys []string, args ...any) *redis.Cmd {
	n := s.opts.WaitReplicas
	if n <= 0 {
		return script.Run(ctx, s.client, keys, args...)
	}
	var node redis.Cmdable = s.client
	cc, cluster := s.client.(*redis.ClusterClient)
	if cluster {
		m, err := cc.MasterForKey(ctx, keys[0])
		if err != nil {
			return errCmd(ctx, err)
		}
		node = m
	}
	run := func(eval func(p redis.Pipeliner) *redis.Cmd) (*redis.Cmd, *redis.Cmd, error) {
		var cmd *redis.Cmd
		var wait *redis.Cmd
		_, err := node.Pipelined(ctx, func(p redis.Pipeliner) error {
			cmd = eval(p)
			wait = p.Do(ctx, "wait", n, s.opts.WaitTimeout.Milliseconds())
			return nil
		})
		return cmd, wait, err
	}
	cmd, wait, _ := run(func(p redis.Pipeliner) *redis.Cmd { return script.EvalSha(ctx, p, keys, args...) })
	if redis.HasErrorPrefix(cmd.Err(), "NOSCRIPT") {
		cmd, wait, _ = run(func(p redis.Pipeliner) *redis.Cmd { return script.Eval(ctx, p, keys, args...) })
	}
	if err := cmd.Err(); err != nil {
		if cluster && (redis.HasErrorPrefix(err, "MOVED") || redis.HasErrorPrefix(err, "ASK") || unavailable(err)) {
			// The node client does not follow redirections: learn the
			// new slot map; the caller retries.
			cc.ReloadState(context.WithoutCancel(ctx))
			return errCmd(ctx, fmt.Errorf("%w: %w", store.ErrUnavailable, err))
		}
		return cmd
	}
	got, err := wait.Int64()
	if err == nil && got < int64(n) {
		err = fmt.Errorf("%w: the write reached %d of %d replicas within %v", store.ErrUnavailable, got, n, s.opts.WaitTimeout)
	}
	if err != nil {
		return errCmd(ctx, err)
	}
	return cmd
}

// errCmd is a command that failed with err.
func errCmd(ctx context.Context, err error) *redis.Cmd {
	c := redis.NewCmd(ctx)
	c.SetErr(err)
	return c
}
