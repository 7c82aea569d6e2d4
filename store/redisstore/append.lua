-- append.lua: add events to a room, if the room is at the expected
-- version; write its snapshot when asked (every few events: the events
-- after it stay in the stream, which Load folds); write the outbox
-- entries that go with the events (store.Outbox: the same atomic step);
-- publish the events; refresh the TTL once an eighth of it has run.
--
-- KEYS[1]  snapshot hash (fields v: the room's version, sv: the version of
--          data, data: the snapshot, ttl)
-- KEYS[2]  log stream
-- KEYS[3]  listing string (may be missing)
-- KEYS[4]  bot records hash (may be missing)
-- KEYS[5]  outbox hash (entry key -> entry), which does not expire with
--          the room: the relay empties it
-- ARGV[1]  expected version
-- ARGV[2]  new snapshot (at the new version; ignored unless ARGV[6] is 1)
-- ARGV[3]  history cap (stream MAXLEN)
-- ARGV[4]  channel for the events
-- ARGV[5]  PUBLISH, or SPUBLISH on a Cluster (the channel is in the room's slot)
-- ARGV[6]  "1" to write the snapshot, "0" to leave the last one
-- ARGV[7]  n, the number of outbox entries
-- ARGV[8..7+2n] the entries: key, then the encoded entry
-- ARGV[8+2n..] events, oldest first
--
-- Returns the new version (> 0); 0 if the room does not exist; minus the
-- room's version on a conflict (nothing changed).
local cur = redis.call('HMGET', KEYS[1], 'v', 'sv', 'ttl')
if not cur[1] then
  return 0
end
local v = tonumber(cur[1])
if v ~= tonumber(ARGV[1]) then
  return -v
end
local n = tonumber(ARGV[7])
for i = 8, 7 + 2 * n, 2 do
  redis.call('HSETNX', KEYS[5], ARGV[i], ARGV[i + 1])
end
for i = 8 + 2 * n, #ARGV do
  v = v + 1
  local id = string.format('%d', v)
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[3], id .. '-0', 'd', ARGV[i])
  redis.call(ARGV[5], ARGV[4], id .. ':' .. ARGV[i])
end
if ARGV[6] == '1' then
  redis.call('HSET', KEYS[1], 'v', v, 'sv', v, 'data', ARGV[2])
elseif not cur[2] then
  -- A room written before snapshots were spaced: its data is at the
  -- version it had.
  redis.call('HSET', KEYS[1], 'v', v, 'sv', ARGV[1])
else
  redis.call('HSET', KEYS[1], 'v', v)
end
-- The room's keys expire together (show.lua and setbot.lua give a new key
-- the snapshot's PTTL): refresh them all once the time left has run down
-- by an eighth, not on every event (four PEXPIREs a move cost Redis more
-- than the XADD).
local ttl = cur[3]
if redis.call('PTTL', KEYS[1]) < tonumber(ttl) * 7 / 8 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
  redis.call('PEXPIRE', KEYS[4], ttl)
end
return v
