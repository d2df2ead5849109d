/**
 * The delegation tokens listeners registered with, in Redis (docs/services.md, "What Redis holds"): one
 * `SET NX EX` per registration naming a hub, so a token accepted by one instance is refused by all the
 * others too (behind a load balancer a replay would otherwise reach a second instance). Each key expires
 * with its token, so Redis holds the tokens of the last minute only. Redis unreachable: the check throws,
 * and the registration is refused as retryable (services/shared/delegation-token.ts).
 */
import type { Redis } from 'ioredis';
import type { ReplayGuard } from '../../shared/delegation-token';
import { usedTokenKey } from './redis-keys';

export function redisReplayGuard(redis: Redis): ReplayGuard {
  return {
    async accept(jti, exp, nowSec) {
      // Relative: Redis's clock need not agree with ours. At least a second: the token was valid just now.
      const seconds = Math.max(1, Math.ceil(exp - nowSec));
      return (await redis.set(usedTokenKey(jti), '1', 'EX', seconds, 'NX')) === 'OK' ? 'first' : 'replayed';
    },
  };
}
