-- renew.lua: extend a lease if the caller still holds it.
--
-- KEYS[1]  lease string (its value is the owner)
-- ARGV[1]  the caller (owner)
-- ARGV[2]  time to live from now, milliseconds
--
-- Returns 1, or 0 if the lease expired or is another owner's.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
