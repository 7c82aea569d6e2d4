-- board.lua: add or update members of a tournament leaderboard and keep
-- it for the leaderboard's time to live, or, once the tournament closed,
-- until the time CloseTournament gave.
--
-- KEYS[1]  the leaderboard's sorted set
-- KEYS[2]  the tournament's "closed" marker, expiring when the board goes
-- ARGV[1]  time to live in milliseconds
-- ARGV[2], ARGV[3], ...  score, member pairs
--
-- Returns the number of members added.
local added = 0
for i = 2, #ARGV, 2 do
  added = added + redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
end
local left = redis.call('PTTL', KEYS[2])
if left > 0 then
  redis.call('PEXPIRE', KEYS[1], left)
else
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return added
