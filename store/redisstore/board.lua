-- board.lua: add or update members of a tournament leaderboard and keep
-- it for the leaderboard's time to live.
--
-- KEYS[1]  the leaderboard's sorted set
-- ARGV[1]  time to live in milliseconds
-- ARGV[2], ARGV[3], ...  score, member pairs
--
-- Returns the number of members added.
local added = 0
for i = 2, #ARGV, 2 do
  added = added + redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return added
