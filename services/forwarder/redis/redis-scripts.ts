/**
 * The forwarder's Lua scripts: each change to Redis that must be atomic, in one round trip. Redis runs a
 * script alone, so two instances never interleave inside one (the sequence and every queue's order stay
 * the same for all; the listener caps cannot be overrun by two registrations at once).
 *
 * Queue bookkeeping is the same in every script (`settle`): a frame's bytes (UTF-8, as Redis holds it)
 * are counted in its slot's score in KEYS.queueBytes and in the total; a queue holding none leaves the set.
 * Each call in a script costs a few microseconds (measured in docs/benchmarks.md), so the scripts make
 * as few as they can: counts come from the replies of the writes (INCRBY, ZINCRBY), not from reads after.
 */
import { createHash } from 'node:crypto';
import { type Redis, ReplyError } from 'ioredis';
import {
  ALIVE_PREFIX,
  CHANGES_MAX_LENGTH,
  KEYS,
  MAX_SLOT_KEY_BYTES,
  MAX_SLOT_RECORD_BYTES,
  ownerSlotsKey,
  tapsKey,
  WAKE_PREFIX,
  webhookSlotsKey,
} from './redis-keys';
import { FRAME_BEFORE_ID } from '../message-frame';
import { errorMessage } from '../../../common/error-message';

const COMMON = `
local queueBytes, pendingBytes = '${KEYS.queueBytes}', '${KEYS.pendingBytes}'
local function settle(queue, size)
  redis.call('INCRBY', pendingBytes, -size)
  if tonumber(redis.call('ZINCRBY', queueBytes, -size, queue)) <= 0 then redis.call('ZREM', queueBytes, queue) end
end
-- Drops the oldest message of a queue; its size and its message id (read from its frame), or nil when the queue is empty.
local function dropOldest(queue)
  local oldest = redis.call('XRANGE', queue, '-', '+', 'COUNT', 1)[1]
  if not oldest then return nil end
  local frame = oldest[2][2]
  redis.call('XDEL', queue, oldest[1])
  settle(queue, #frame)
  return #frame, string.match(frame, '^${FRAME_BEFORE_ID}"([^"]+)"') or ''
end
-- A change names what changed and carries its number; the mirrors read the value from its hash, so an
-- entry weighs what an id does whatever the value (docs/services.md, "What Redis holds").
local function change(kind, subject)
  local n = redis.call('INCR', '${KEYS.changeSequence}')
  return redis.call('XADD', '${KEYS.changes}', 'MAXLEN', '~', ${CHANGES_MAX_LENGTH}, '*', 'k', kind, 's', subject, 'n', n)
end
`;

/**
 * The intakes of one turn, in order. Each takes the next sequence number, which makes its id
 * (`evt_<time>_<sequence>`, message-ids.ts) and its stream entry id (`<sequence>-0`), so "after id X" is
 * the same on every instance. Each target queue gets its frame (prefix .. id .. suffix of the form it
 * wants), then its own caps are applied; after all of them, the forwarder-wide byte budget (the largest
 * queue first). The instances holding the targets' listeners are woken, but for the one running the
 * intakes: it is told, for each target, the entry before the new one ('' when the queue was empty), so
 * it can send the frame it has at once to a listener of its own that has everything before
 * (redis-backend.ts). Returns { { id, 1 when a tap of the webhook is open (else 0), { entry before, per
 * target } } per intake, { queue, dropped now, dropped so far, newest dropped, … } for the queues that lost
 * messages }.
 * KEYS: every intake's target queues, one after the other. ARGV: time (base36), count cap, byte cap,
 * byte budget, this instance, the number of intakes, then per intake: its webhook id, the two forms'
 * prefix and suffix, its number of targets, and each target's form (1 or 2).
 */
const INTAKE = `${COMMON}
local function base36(n, width)
  local digits = '0123456789abcdefghijklmnopqrstuvwxyz'
  local text = ''
  repeat
    local digit = n % 36
    text = string.sub(digits, digit + 1, digit + 1) .. text
    n = (n - digit) / 36
  until n == 0
  return string.rep('0', width - #text) .. text
end
local countCap, byteCap, budget, instance = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local lost, through, wakes, dropped, replies, total = {}, {}, {}, {}, {}, 0
local at, k = 7, 0
for n = 1, tonumber(ARGV[6]) do
  local webhookId, forms, targets = ARGV[at], { { ARGV[at + 1], ARGV[at + 2] }, { ARGV[at + 3], ARGV[at + 4] } }, tonumber(ARGV[at + 5])
  at = at + 6
  local sequence = redis.call('INCR', '${KEYS.sequence}')
  local id = 'evt_' .. ARGV[1] .. '_' .. base36(sequence, 10)
  local entry = sequence .. '-0'
  local before = {}
  for t = 1, targets do
    k = k + 1
    local queue, form = KEYS[k], forms[tonumber(ARGV[at])]
    at = at + 1
    local frame = form[1] .. id .. form[2]
    local last = redis.call('XREVRANGE', queue, '+', '-', 'COUNT', 1)[1]
    before[t] = last and last[1] or ''
    redis.call('XADD', queue, entry, 'f', frame)
    total = redis.call('INCRBY', pendingBytes, #frame)
    local bytes = tonumber(redis.call('ZINCRBY', queueBytes, #frame, queue))
    local length = redis.call('XLEN', queue)
    while length > countCap or (bytes > byteCap and length > 1) do
      local size, dropId = dropOldest(queue)
      bytes = bytes - size
      total = total - size
      length = length - 1
      lost[queue] = (lost[queue] or 0) + 1
      through[queue] = dropId
    end
    local owner = redis.call('HGET', '${KEYS.owners}', queue)
    if owner and owner ~= instance then wakes[owner] = (wakes[owner] and wakes[owner] .. '\\n' or '') .. queue end
  end
  replies[n] = { id, redis.call('SISMEMBER', '${KEYS.tapped}', webhookId), before }
end
while total > budget do
  local largest = redis.call('ZREVRANGE', queueBytes, 0, 0)[1]
  if not largest then break end
  local size, dropId = dropOldest(largest)
  if not size then redis.call('ZREM', queueBytes, largest) else
    total = total - size
    lost[largest] = (lost[largest] or 0) + 1
    through[largest] = dropId
  end
end
-- Each queue's drops so far and the newest, for its listener's notice: told here in the reply, or to the
-- instance its listener is on by a '?<count> <id> <queue>' line of its wake-ups.
for queue, count in pairs(lost) do
  local before = redis.call('HGET', '${KEYS.dropped}', queue)
  local sum = count + (before and tonumber(string.match(before, '^%d+')) or 0)
  redis.call('HSET', '${KEYS.dropped}', queue, sum .. ' ' .. through[queue])
  for _, value in ipairs({ queue, count, sum, through[queue] }) do table.insert(dropped, value) end
  local owner = redis.call('HGET', '${KEYS.owners}', queue)
  if owner and owner ~= instance then wakes[owner] = (wakes[owner] and wakes[owner] .. '\\n' or '') .. '?' .. sum .. ' ' .. through[queue] .. ' ' .. queue end
end
for owner, queues in pairs(wakes) do redis.call('PUBLISH', '${WAKE_PREFIX}' .. owner, queues) end
return { replies, dropped }
`;

/** Acknowledgements: the entries leave their queue. KEYS: the queue. ARGV: the entry ids. Returns how many were there. */
const ACKNOWLEDGE = `${COMMON}
local removed = 0
for _, id in ipairs(ARGV) do
  local entry = redis.call('XRANGE', KEYS[1], id, id)[1]
  if entry then
    redis.call('XDEL', KEYS[1], id)
    settle(KEYS[1], #entry[2][2])
    removed = removed + 1
  end
end
return removed
`;

/**
 * A listener registers on this instance: the slot is created within the caps (a reconnect never counts
 * against them) or its registration replaced; this instance becomes its owner (the previous one, if
 * another, is told to close its connection); what the listener says it has (entries up to its
 * resumeAfter) leaves the queue; what the queue lost so far comes back for the listener's notice. A record over MAX_SLOT_RECORD_BYTES (or a slot key over MAX_SLOT_KEY_BYTES) is
 * refused: what `fw:slots` holds per slot is bounded here, whatever the instance checked. Returns
 * { 'refused', reason } or { 'ok', change id, messages waiting, `<count> <id>` of its drops or '' }.
 * KEYS: the slot's queue. ARGV: the slot record (JSON), webhook id, owner id, per-webhook cap, per-owner
 * cap, this instance, the resumeAfter entry id or ''.
 */
const REGISTER = `${COMMON}
local slot, webhookSlots, ownerSlots = KEYS[1], '${webhookSlotsKey('')}' .. ARGV[2], '${ownerSlotsKey('')}' .. ARGV[3]
if #ARGV[1] > ${MAX_SLOT_RECORD_BYTES} then return { 'refused', 'this registration takes ' .. #ARGV[1] .. ' bytes; the limit is ${MAX_SLOT_RECORD_BYTES}' } end
if #slot > ${MAX_SLOT_KEY_BYTES} then return { 'refused', 'this listener slot takes ' .. #slot .. ' bytes; the limit is ${MAX_SLOT_KEY_BYTES}' } end
if redis.call('HEXISTS', '${KEYS.slots}', slot) == 0 then
  local ofWebhook, ofOwner = redis.call('SCARD', webhookSlots), redis.call('SCARD', ownerSlots)
  if ofWebhook >= tonumber(ARGV[4]) then return { 'refused', 'this webhook already has ' .. ofWebhook .. ' listeners; the limit is ' .. ARGV[4] } end
  if ofOwner >= tonumber(ARGV[5]) then return { 'refused', "this webhook's owner already has " .. ofOwner .. ' listeners; the limit is ' .. ARGV[5] } end
end
redis.call('HSET', '${KEYS.slots}', slot, ARGV[1])
redis.call('SADD', webhookSlots, slot)
redis.call('SADD', ownerSlots, slot)
local previous = redis.call('HGET', '${KEYS.owners}', slot)
redis.call('HSET', '${KEYS.owners}', slot, ARGV[6])
redis.call('ZREM', '${KEYS.away}', slot)
if previous and previous ~= ARGV[6] then redis.call('PUBLISH', '${WAKE_PREFIX}' .. previous, '!' .. slot) end
if ARGV[7] ~= '' then
  for _, entry in ipairs(redis.call('XRANGE', slot, '-', ARGV[7])) do
    redis.call('XDEL', slot, entry[1])
    settle(slot, #entry[2][2])
  end
end
return { 'ok', change('slot', slot), redis.call('XLEN', slot), redis.call('HGET', '${KEYS.dropped}', slot) or '' }
`;

/** A listener's connection closed: if this instance still owns the slot, the slot is away from now. KEYS: the slot. ARGV: this instance, now (ms). */
const RELEASE = `
if redis.call('HGET', '${KEYS.owners}', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HDEL', '${KEYS.owners}', KEYS[1])
redis.call('ZADD', '${KEYS.away}', ARGV[2], KEYS[1])
return 1
`;

/**
 * This instance is alive (its key renewed for ARGV[2] ms), and the listeners connected to it (KEYS) are
 * its own again where a sweep took them away meanwhile: an instance too busy to renew its key in time
 * (a flood) was swept as gone, and the wake-ups for its listeners went to nobody while they were still
 * connected to it. A slot registered elsewhere since (another owner) or forgotten (no record) is left
 * alone. Returns the slots taken back (their streams may hold messages nobody was woken for).
 * ARGV: this instance, ms.
 */
const ALIVE = `
redis.call('SET', '${ALIVE_PREFIX}' .. ARGV[1], '1', 'PX', ARGV[2])
local reclaimed = {}
for _, slot in ipairs(KEYS) do
  if not redis.call('HGET', '${KEYS.owners}', slot) and redis.call('HEXISTS', '${KEYS.slots}', slot) == 1 then
    redis.call('HSET', '${KEYS.owners}', slot, ARGV[1])
    redis.call('ZREM', '${KEYS.away}', slot)
    table.insert(reclaimed, slot)
  end
end
return reclaimed
`;

/** A tap opened (ARGV[3] = 1) or closed (0) on this instance. KEYS: none. ARGV: webhook id, `<instance>/<tap>`, 1 or 0. */
const TAP = `${COMMON}
local taps = '${tapsKey('')}' .. ARGV[1]
if ARGV[3] == '1' then redis.call('SADD', taps, ARGV[2]) else redis.call('SREM', taps, ARGV[2]) end
local open = redis.call('SCARD', taps)
if open == 0 then redis.call('SREM', '${KEYS.tapped}', ARGV[1]) else redis.call('SADD', '${KEYS.tapped}', ARGV[1]) end
return change('taps', ARGV[1])
`;

/**
 * Run by every instance now and then (idempotent): the slots of instances that are gone (their alive key
 * expired) are away from now, and so are their taps closed; slots away longer than `forgetAfterMs` are
 * forgotten with their queues. ARGV: now (ms), forgetAfterMs. Returns how many slots were forgotten.
 */
const SWEEP = `${COMMON}
local now, alive = tonumber(ARGV[1]), {}
local function lives(instance)
  if alive[instance] == nil then alive[instance] = redis.call('EXISTS', '${ALIVE_PREFIX}' .. instance) == 1 end
  return alive[instance]
end
local owners = redis.call('HGETALL', '${KEYS.owners}')
for i = 1, #owners, 2 do
  if not lives(owners[i + 1]) then
    redis.call('HDEL', '${KEYS.owners}', owners[i])
    redis.call('ZADD', '${KEYS.away}', now, owners[i])
  end
end
for _, webhookId in ipairs(redis.call('SMEMBERS', '${KEYS.tapped}')) do
  local taps, closed = '${tapsKey('')}' .. webhookId, 0
  for _, tap in ipairs(redis.call('SMEMBERS', taps)) do
    if not lives(string.match(tap, '^[^/]*')) then
      redis.call('SREM', taps, tap)
      closed = closed + 1
    end
  end
  if closed > 0 then
    local open = redis.call('SCARD', taps)
    if open == 0 then redis.call('SREM', '${KEYS.tapped}', webhookId) end
    change('taps', webhookId)
  end
end
local stale = redis.call('ZRANGEBYSCORE', '${KEYS.away}', '-inf', now - tonumber(ARGV[2]))
for _, slot in ipairs(stale) do
  local record = redis.call('HGET', '${KEYS.slots}', slot)
  if record then
    local decoded = cjson.decode(record)
    redis.call('SREM', '${webhookSlotsKey('')}' .. decoded.webhookId, slot)
    redis.call('SREM', '${ownerSlotsKey('')}' .. decoded.ownerId, slot)
    redis.call('HDEL', '${KEYS.slots}', slot)
  end
  redis.call('HDEL', '${KEYS.dropped}', slot)
  local bytes = redis.call('ZSCORE', queueBytes, slot)
  if bytes then redis.call('INCRBY', pendingBytes, -tonumber(bytes)) end
  redis.call('ZREM', queueBytes, slot)
  redis.call('DEL', slot)
  redis.call('ZREM', '${KEYS.away}', slot)
  change('slot', slot)
end
return #stale
`;

/** A webhook is written only if it is still as it was read (optimistic: the store reads, changes, retries). ARGV: id, the JSON read ('' for none), the new JSON. Returns the change id, or nil. */
const PUT_WEBHOOK = `${COMMON}
if (redis.call('HGET', '${KEYS.webhooks}', ARGV[1]) or '') ~= ARGV[2] then return nil end
redis.call('HSET', '${KEYS.webhooks}', ARGV[1], ARGV[3])
return change('webhook', ARGV[1])
`;

/** For /metrics: messages and bytes waiting in all queues (one XLEN per queue holding any; run when scraped). */
const PENDING = `
local messages = 0
for _, queue in ipairs(redis.call('ZRANGE', '${KEYS.queueBytes}', 0, -1)) do messages = messages + redis.call('XLEN', queue) end
return { messages, tonumber(redis.call('GET', '${KEYS.pendingBytes}') or '0') }
`;

const SCRIPTS = {
  fwAlive: ALIVE,
  fwIntake: INTAKE,
  fwAcknowledge: ACKNOWLEDGE,
  fwRegister: REGISTER,
  fwRelease: RELEASE,
  fwTap: TAP,
  fwSweep: SWEEP,
  fwPutWebhook: PUT_WEBHOOK,
  fwPending: PENDING,
};
type ScriptName = keyof typeof SCRIPTS;
/** Each script's SHA-1, the name EVALSHA runs it by from Redis's script cache. */
const SHAS = Object.fromEntries(Object.entries(SCRIPTS).map(([name, lua]) => [name, createHash('sha1').update(lua).digest('hex')])) as Record<
  ScriptName,
  string
>;

/** One intake for the INTAKE script: its target queues, the frame around the id in both forms, and each target's form. */
export interface IntakeToStore {
  webhookId: string;
  queues: readonly string[];
  forms: readonly [readonly [string, string], readonly [string, string]];
  formOf: readonly (1 | 2)[];
}

export interface StoredIntake {
  id: string;
  tapped: boolean;
  /** Per target queue, the entry before this intake's ('' when the queue was empty). */
  before: string[];
}

/** What a queue lost to its caps or the budget: `count` in all, the newest being `through` (a message id). */
export interface QueueDrops {
  count: number;
  through: string;
}

/** A `<count> <id>` value of KEYS.dropped; undefined for '' or anything else. */
export function parseQueueDrops(text: string): QueueDrops | undefined {
  const match = /^(\d+) (\S+)$/.exec(text);
  return match ? { count: Number(match[1]), through: match[2]! } : undefined;
}
type Reply = string | number | null | Reply[];

/** The scripts on one connection. */
export class ForwarderScripts {
  constructor(private readonly redis: Redis) {}

  /**
   * EVALSHA, and EVAL (which caches the script) when Redis answers NOSCRIPT: the script's first run on this
   * Redis, or after a restart or SCRIPT FLUSH emptied its cache. Not ioredis's `defineCommand`, which does
   * the same: under load its wrapper of each call made about 450 KB of objects outlive each young-generation
   * collection and fill the old generation, so major collections came six times as often
   * (docs/benchmarks.md, "Redis-mode latency, 2026-11-29 (11:00 UTC)").
   */
  private run(name: ScriptName, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<Reply> {
    return (this.redis.evalsha(SHAS[name], keys.length, ...keys, ...args) as Promise<Reply>).catch((error: unknown) => {
      if (!(error instanceof ReplyError) || !errorMessage(error).startsWith('NOSCRIPT')) throw error;
      return this.redis.eval(SCRIPTS[name], keys.length, ...keys, ...args) as Promise<Reply>;
    });
  }

  /**
   * Stores the intakes in order (one script); each one's id, whether a tap of its webhook is open, and the
   * entry before it in each target queue; and the queues that lost messages to their caps or the budget
   * (how many now, and their drops so far).
   */
  async intake(
    intakes: readonly IntakeToStore[],
    args: { instance: string; time: string; countCap: number; byteCap: number; budget: number },
  ): Promise<{ stored: StoredIntake[]; lost: Array<{ queue: string; now: number; drops: QueueDrops }> }> {
    const keys = intakes.flatMap((intake) => intake.queues);
    const perIntake = intakes.flatMap(({ webhookId, forms: [[prefix1, suffix1], [prefix2, suffix2]], queues, formOf }) => [
      webhookId,
      prefix1,
      suffix1,
      prefix2,
      suffix2,
      queues.length,
      ...formOf,
    ]);
    const [replies, dropped] = (await this.run('fwIntake', keys, [
      args.time,
      args.countCap,
      args.byteCap,
      args.budget,
      args.instance,
      intakes.length,
      ...perIntake,
    ])) as [Array<[string, number, string[]]>, Array<string | number>];
    const lost: Array<{ queue: string; now: number; drops: QueueDrops }> = [];
    for (let i = 0; i < dropped.length; i += 4)
      lost.push({ queue: String(dropped[i]), now: Number(dropped[i + 1]), drops: { count: Number(dropped[i + 2]), through: String(dropped[i + 3]) } });
    return { stored: replies.map(([id, tapped, before]) => ({ id, tapped: tapped === 1, before })), lost };
  }

  /** How many of the entries were still there. */
  async acknowledge(queue: string, entries: readonly string[]): Promise<number> {
    return Number(await this.run('fwAcknowledge', [queue], entries));
  }

  async register(
    queue: string,
    args: {
      record: string;
      webhookId: string;
      ownerId: string;
      maxPerWebhook: number;
      maxPerOwner: number;
      instance: string;
      resumeAfterEntry: string | undefined;
    },
  ): Promise<{ refused: string } | { version: string; waiting: number; drops: QueueDrops | undefined }> {
    const reply = (await this.run(
      'fwRegister',
      [queue],
      [args.record, args.webhookId, args.ownerId, args.maxPerWebhook, args.maxPerOwner, args.instance, args.resumeAfterEntry ?? ''],
    )) as Array<string | number>;
    return reply[0] === 'refused'
      ? { refused: String(reply[1]) }
      : { version: String(reply[1]), waiting: Number(reply[2]), drops: parseQueueDrops(String(reply[3])) };
  }

  /** Renews the instance's alive key and takes back the `connected` slots a sweep made away; those taken back. */
  async alive(instance: string, aliveMs: number, connected: readonly string[]): Promise<string[]> {
    return ((await this.run('fwAlive', connected, [instance, aliveMs])) as Reply[]).map(String);
  }

  async release(queue: string, instance: string, now: number): Promise<void> {
    await this.run('fwRelease', [queue], [instance, now]);
  }

  async tap(webhookId: string, tap: string, open: boolean): Promise<string> {
    return String(await this.run('fwTap', [], [webhookId, tap, open ? 1 : 0]));
  }

  async sweep(now: number, forgetAfterMs: number): Promise<number> {
    return Number(await this.run('fwSweep', [], [now, forgetAfterMs]));
  }

  async pending(): Promise<{ messages: number; bytes: number }> {
    const [messages, bytes] = (await this.run('fwPending', [], [])) as [number, number];
    return { messages, bytes };
  }

  /** The change id, or undefined when the webhook was changed since `expected` was read. */
  async putWebhook(id: string, expected: string | null, next: string): Promise<string | undefined> {
    const reply = await this.run('fwPutWebhook', [], [id, expected ?? '', next]);
    return reply === null ? undefined : String(reply);
  }
}
