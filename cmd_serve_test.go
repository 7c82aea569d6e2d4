package main

import (
	"testing"
)

func TestRedisOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       serveConfig
		addrs   int
		master  string
		db      int
		wantErr bool
	}{
		{name: "single node", c: serveConfig{redisURL: "redis://127.0.0.1:6379/2"}, addrs: 1, db: 2},
		{name: "cluster", c: serveConfig{redisAddrs: "10.0.0.1:6379, 10.0.0.2:6379,10.0.0.3:6379"}, addrs: 3},
		{name: "sentinel", c: serveConfig{redisAddrs: "s1:26379,s2:26379", redisMaster: "golf", redisURL: "redis://:pw@x:1/1"}, addrs: 2, master: "golf", db: 1},
		{name: "cluster has no database 3", c: serveConfig{redisURL: "redis://h:1/3", redisAddrs: "a:1,b:1"}, wantErr: true},
		{name: "bad url", c: serveConfig{redisURL: "http://nope"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			uo, err := redisOptions(tt.c)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if len(uo.Addrs) != tt.addrs || uo.MasterName != tt.master || uo.DB != tt.db {
				t.Errorf("got %d addrs, master %q, db %d", len(uo.Addrs), uo.MasterName, uo.DB)
			}
		})
	}
}
