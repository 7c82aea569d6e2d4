-- A client's open WebSockets, counted across instances: one sorted set per
-- client, a member per socket scored by the time (ms, Redis's clock) it
-- stops counting unless refreshed. An instance refreshes its sockets while
-- they live and removes them when they close; a crashed instance's sockets
-- expire on their own.
--
-- KEYS[1]  the client's set: prefix .. "socks:" .. client
-- ARGV[1]  the socket's id (instance id .. ":" .. a number)
-- ARGV[2]  the cap: the client's most sockets; -1 for none (a refresh)
-- ARGV[3]  how long a socket counts unless refreshed, in milliseconds
--
-- Returns 1 when the socket is counted, 0 when the cap refuses it (nothing
-- is written then). A socket already counted is never refused.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local cap = tonumber(ARGV[2])
if cap >= 0 and not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= cap then
  return 0
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
