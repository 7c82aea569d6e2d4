-- release.lua: end a lease now if the caller holds it.
--
-- KEYS[1]  lease string (its value is the owner)
-- ARGV[1]  the caller (owner)
--
-- Returns 1 if the lease was the caller's and is gone, else 0.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
