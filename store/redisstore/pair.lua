-- pair.lua: take the ticket waiting in a quick-match queue, or wait there.
--
-- KEYS[1]  queue list (holds at most one ticket: a second comer pairs)
-- ARGV[1]  the caller's ticket
-- ARGV[2]  time to live of the queue, milliseconds
--
-- Returns the partner's ticket, or nil when the caller now waits (or was
-- already waiting).
local head = redis.call('LINDEX', KEYS[1], 0)
if head == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return false
end
if head then
  redis.call('LPOP', KEYS[1])
  return head
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return false
