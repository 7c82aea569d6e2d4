-- append.lua: add events to a room and replace its snapshot, if the room
-- is at the expected version; publish the events; refresh the TTL.
--
-- KEYS[1]  snapshot hash (fields v, data, ttl)
-- KEYS[2]  log stream
-- KEYS[3]  listing string (may be missing)
-- KEYS[4]  bot records hash (may be missing)
-- ARGV[1]  expected version
-- ARGV[2]  new snapshot
-- ARGV[3]  history cap (stream MAXLEN)
-- ARGV[4]  channel for the events
-- ARGV[5..] events, oldest first
--
-- Returns the new version (> 0); 0 if the room does not exist; minus the
-- room's version on a conflict (nothing changed).
local v = redis.call('HGET', KEYS[1], 'v')
if not v then
  return 0
end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then
  return -v
end
for i = 5, #ARGV do
  v = v + 1
  local id = string.format('%d', v)
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[3], id .. '-0', 'd', ARGV[i])
  redis.call('PUBLISH', ARGV[4], id .. ':' .. ARGV[i])
end
redis.call('HSET', KEYS[1], 'v', v, 'data', ARGV[2])
local ttl = redis.call('HGET', KEYS[1], 'ttl')
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('PEXPIRE', KEYS[4], ttl)
return v
