-- expire.lua: set how long a room is kept from now (and from each later
-- Append), or remove it now.
--
-- KEYS[1]  snapshot hash (fields v, data, ttl)
-- KEYS[2]  log stream
-- KEYS[3]  listing string (may be missing)
-- KEYS[4]  bot records hash (may be missing)
-- ARGV[1]  time to live, milliseconds; <= 0 removes the room
--
-- Returns 1, or 0 if the room does not exist.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if tonumber(ARGV[1]) <= 0 then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
  return 1
end
redis.call('HSET', KEYS[1], 'ttl', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[1])
redis.call('PEXPIRE', KEYS[4], ARGV[1])
return 1
