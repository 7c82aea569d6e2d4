package redisstore

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// The Lua scripts, one per file; each file's header documents its KEYS
// and ARGV. Script.Run sends EVALSHA and falls back to EVAL the first time.
var (
	//go:embed create.lua
	createLua    string
	createScript = redis.NewScript(createLua)

	//go:embed append.lua
	appendLua    string
	appendScript = redis.NewScript(appendLua)

	//go:embed load.lua
	loadLua    string
	loadScript = redis.NewScript(loadLua)

	//go:embed expire.lua
	expireLua    string
	expireScript = redis.NewScript(expireLua)

	//go:embed show.lua
	showLua    string
	showScript = redis.NewScript(showLua)

	//go:embed outboxprune.lua
	outboxPruneLua    string
	outboxPruneScript = redis.NewScript(outboxPruneLua)

	//go:embed pair.lua
	pairLua    string
	pairScript = redis.NewScript(pairLua)
)

// The scripts of bot records and leases (bots.go).
var (
	//go:embed setbot.lua
	setBotLua    string
	setBotScript = redis.NewScript(setBotLua)

	//go:embed renew.lua
	renewLua    string
	renewScript = redis.NewScript(renewLua)

	//go:embed release.lua
	releaseLua    string
	releaseScript = redis.NewScript(releaseLua)
)
