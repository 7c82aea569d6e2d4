-- PopSeeds: remove and return the n oldest entries of a seed pool, or
-- nothing (false) when it holds fewer.
-- KEYS[1] the pool (a list, oldest first)
-- ARGV[1] n
local n = tonumber(ARGV[1])
if redis.call('LLEN', KEYS[1]) < n then
  return false
end
if n == 0 then
  return {}
end
local out = redis.call('LRANGE', KEYS[1], 0, n - 1)
redis.call('LTRIM', KEYS[1], n, -1)
return out
