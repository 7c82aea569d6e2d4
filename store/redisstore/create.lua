-- create.lua: make a room at version 1, unless the code is taken.
--
-- KEYS[1]  snapshot hash (fields v, sv, data, ttl)
-- KEYS[2]  log stream
-- KEYS[3]  listing string
-- KEYS[4]  bot records hash
-- ARGV[1]  snapshot
-- ARGV[2]  first event (version 1)
-- ARGV[3]  time to live, milliseconds
-- ARGV[4]  history cap (stream MAXLEN)
-- ARGV[5]  pub/sub channel of the room
-- ARGV[6]  PUBLISH, or SPUBLISH on a Cluster (the channel is in the room's slot)
--
-- Returns 1, or 0 if the room exists.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
-- Leftovers of an earlier room with this code (Expire removes them all at
-- once, but be safe: stream IDs must start again at 1).
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'v', 1, 'sv', 1, 'data', ARGV[1], 'ttl', ARGV[3])
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[4], '1-0', 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call(ARGV[6], ARGV[5], '1:' .. ARGV[2])
return 1
