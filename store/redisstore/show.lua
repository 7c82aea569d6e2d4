-- show.lua: store a room's listing data, expiring with the room.
--
-- KEYS[1]  snapshot hash of the room
-- KEYS[2]  listing string
-- ARGV[1]  listing data
--
-- Returns 1, or 0 if the room does not exist.
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then
  return 0
end
if ttl > 0 then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ttl)
else
  redis.call('SET', KEYS[2], ARGV[1])
end
return 1
