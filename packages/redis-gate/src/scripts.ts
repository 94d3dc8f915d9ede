// The gate's two Redis scripts. Each runs atomically on the Redis server, on its clock (TIME), so the
// processes sharing a gate need neither a common clock nor a lock.

/**
 * Reserves a slot of a sliding-window log. KEYS[1]: the log, a sorted set of slots (score: the slot's time
 * in ms). ARGV: requests per window, the window in ms (margin included), a member unique to this slot.
 * Returns the wait in ms before the slot (0: now). A slot is at least one window after the slot
 * `requests` places before it, so no window of that length ever holds more than `requests` slots, wherever
 * a server's own windows start.
 */
export const RESERVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local requests = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local slot = now
if redis.call('ZCARD', KEYS[1]) >= requests then
  local back = redis.call('ZRANGE', KEYS[1], -requests, -requests, 'WITHSCORES')
  slot = math.max(now, tonumber(back[2]) + window)
end
redis.call('ZADD', KEYS[1], slot, ARGV[3])
redis.call('PEXPIRE', KEYS[1], slot - now + window)
return slot - now
`;

/**
 * Stores and broadcasts a pause. KEYS[1]: the pause key. ARGV: the pause in ms, the message, the channel.
 * The key is set (expiring with the pause) only when that lengthens the pause in force, so that a late
 * joiner reads the longest; the message is published either way.
 */
export const PAUSE_SCRIPT = `
local ms = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < ms then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ms)
end
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 0
`;
