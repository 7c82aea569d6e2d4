-- load.lua: read a room's last snapshot and the events after it, at once.
--
-- KEYS[1]  snapshot hash (fields v, sv, data)
-- KEYS[2]  log stream
--
-- Returns false if the room does not exist; else {v, sv, data, entries}
-- where entries are the stream's entries after version sv (each {id,
-- {field, value}}), none when sv = v.
local cur = redis.call('HMGET', KEYS[1], 'v', 'sv', 'data')
if not cur[1] then
  return false
end
local sv = cur[2] or cur[1]
local tail = {}
if tonumber(sv) < tonumber(cur[1]) then
  tail = redis.call('XRANGE', KEYS[2], string.format('%d', tonumber(sv) + 1) .. '-0', '+')
end
return {cur[1], sv, cur[3] or '', tail}
