-- deliver.lua: put an item in an inbox as its newest, unless the inbox
-- is full (store.Inboxes.Deliver).
--
-- KEYS[1]  the inbox's items: a hash of data by item id
-- KEYS[2]  the inbox's order: a list of item ids, newest first
-- ARGV[1]  item id
-- ARGV[2]  item data
-- ARGV[3]  the most items the inbox holds
-- ARGV[4]  how long the inbox is kept from now, in milliseconds
--
-- Returns 1, or 0 (and changes nothing) when the inbox holds ARGV[3]
-- items already, none under the id.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('LREM', KEYS[2], 0, ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
