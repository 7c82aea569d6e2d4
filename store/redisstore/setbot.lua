-- setbot.lua: record a bot of a room, expiring with the room.
--
-- KEYS[1]  snapshot hash of the room
-- KEYS[2]  bot records hash of the room (field: bot id)
-- ARGV[1]  bot id
-- ARGV[2]  record data
--
-- Returns 1, or 0 if the room does not exist.
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return 1
