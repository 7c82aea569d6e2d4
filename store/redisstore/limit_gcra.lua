-- GCRA (generic cell rate algorithm): one token bucket per key, kept as its
-- theoretical arrival time, so a bucket is a single integer with an expiry.
-- The clock is Redis's own (TIME), so every instance sees the same one.
--
-- KEYS[1]  the bucket: prefix .. "limit:" .. action .. "|" .. client
-- ARGV[1]  emission interval: microseconds per token (1e6 / rate)
-- ARGV[2]  burst: how many tokens the bucket holds
--
-- Returns {1, 0} when a token was taken, or {0, retry} with retry the
-- microseconds until one will be there. Nothing is written on a refusal.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then
  tat = now
end
local new_tat = tat + interval
local allow_at = new_tat - burst * interval
if now < allow_at then
  return {0, allow_at - now}
end
redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
return {1, 0}
