-- PushSeeds: append entries to a seed pool, keeping at most max of them
-- (the newest beyond it are dropped); returns the pool's length.
-- KEYS[1] the pool (a list, oldest first)
-- ARGV[1] max, ARGV[2..] the entries
local max = tonumber(ARGV[1])
local len = redis.call('LLEN', KEYS[1])
for i = 2, #ARGV do
  if len >= max then
    break
  end
  redis.call('RPUSH', KEYS[1], ARGV[i])
  len = len + 1
end
return len
