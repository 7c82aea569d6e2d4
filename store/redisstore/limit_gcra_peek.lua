-- Whether limit_gcra.lua would take a token now, taking none (writes
-- nothing): the same bucket, keys and arguments.
--
-- Returns {1, 0} when a token is there, or {0, retry} with retry the
-- microseconds until one will be.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then
  tat = now
end
local allow_at = tat + interval - burst * interval
if now < allow_at then
  return {0, allow_at - now}
end
return {1, 0}
