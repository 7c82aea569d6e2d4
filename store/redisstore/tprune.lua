-- tprune.lua: remove the tournaments whose time after closing is up
-- (CloseTournament) from the list and the due-time index.
--
-- KEYS[1]  sorted set of listed ids
-- KEYS[2]  hash of listing data by id
-- KEYS[3]  due-time sorted set
-- KEYS[4]  sorted set of ids by the time (Unix ms) they go
-- ARGV[1]  now, Unix ms
-- ARGV[2]  an id to remove now whatever its time ("" for none)
--
-- Returns the number of tournaments removed.
local ids = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[1], 'LIMIT', 0, 1000)
if ARGV[2] ~= '' then
  table.insert(ids, ARGV[2])
end
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZREM', KEYS[4], id)
end
return #ids
