-- tlist.lua: show or hide a tournament in the list of tournaments.
--
-- KEYS[1]  sorted set of listed ids, scored by the order of first listing
-- KEYS[2]  hash of listing data by id
-- KEYS[3]  counter giving the order
-- ARGV[1]  tournament id
-- ARGV[2]  "1" to show, "0" to hide
-- ARGV[3]  listing data (when showing)
-- ARGV[4]  time to live of the three keys, milliseconds (refreshed by
--          every call, so the list goes once no tournament is listed for
--          that long)
--
-- Returns 1.
for i = 1, 3 do
  redis.call('PEXPIRE', KEYS[i], ARGV[4])
end
if ARGV[2] == '0' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  local seq = redis.call('INCR', KEYS[3])
  redis.call('ZADD', KEYS[1], seq, ARGV[1])
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
for i = 1, 3 do
  redis.call('PEXPIRE', KEYS[i], ARGV[4])
end
return 1
