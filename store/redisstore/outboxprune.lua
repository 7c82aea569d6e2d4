-- outboxprune.lua: drop a room from the outbox index once its entries
-- are all done, unless an entry was written since the relay looked.
--
-- KEYS[1]  the outbox index shard (room code -> Unix ms of the last write)
-- ARGV[1]  room code
-- ARGV[2]  the score the relay read (the index entry is left alone if it
--          changed)
--
-- Returns 1 if the room was dropped from the index, else 0.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
