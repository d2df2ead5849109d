/**
 * The insights routes (common/insights.ts, docs/interface.md "Insights"): the list of logs and a log's
 * entries at a resolution. Scope `insights.readonly`; refusals as on every hub route (hub-access).
 * `:uri` and `:id` arrive URL-decoded, so the official client's raw colons and an app's `%3A` are the same.
 * A session's entries reads take turns (read-limiter; docs/security.md, "Insights reads") and each
 * answer is made in chunks (entries-json), so one session's flood of long reads cannot hold the hub.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_INSIGHTS_RESOLUTION, INSIGHTS_RESOLUTION_NAMES, isInsightsResolution } from '../../../common/insights';
import { HttpError, invalidRequest } from '../../shared/http-error';
import { Params } from '../../shared/params';
import { authorise } from '../hub-access';
import type { HubSession, HubSessionStore } from '../hub-sessions';
import { entriesJson } from './entries-json';
import { INSIGHTS_READS_RUNNING_PER_SESSION, INSIGHTS_READS_WAITING_PER_SESSION, type InsightsReadLimiter } from './read-limiter';
import type { InsightsRecorder } from './recorder';

/** What a refused read is told to wait, in seconds: a turn ends within milliseconds, a queue of 64 within about one. */
export const INSIGHTS_RETRY_AFTER_SECONDS = 1;

export interface InsightsRouteDeps {
  insights: InsightsRecorder;
  sessions: HubSessionStore;
  reads: InsightsReadLimiter<HubSession>;
}

export function registerInsightsRoutes(app: FastifyInstance, { insights, sessions, reads }: InsightsRouteDeps): void {
  app.get('/api/manager/insights/log', async (request, reply) => {
    authorise(sessions, request, 'insights.readonly');
    return reply.header('cache-control', 'no-store').send(insights.logs());
  });

  app.get<{ Params: { uri: string; id: string } }>('/api/manager/insights/log/:uri/:id/entry', async (request, reply) => {
    const session = authorise(sessions, request, 'insights.readonly');
    const resolution = Params.ofQuery(request).optional('resolution') ?? DEFAULT_INSIGHTS_RESOLUTION;
    if (!isInsightsResolution(resolution)) throw invalidRequest(`resolution must be one of: ${INSIGHTS_RESOLUTION_NAMES.join(', ')}.`);
    const turn = reads.acquire(session);
    if (!turn) {
      throw new HttpError(
        429,
        'too_many_requests',
        `This session already has ${INSIGHTS_READS_RUNNING_PER_SESSION} insights reads running and ${INSIGHTS_READS_WAITING_PER_SESSION} waiting; send fewer at once.`,
        { 'retry-after': String(INSIGHTS_RETRY_AFTER_SECONDS) },
      );
    }
    // A read whose client left while it waited is not made. The turn ends once the answer is made:
    // a client that reads its answers only after all have begun (Promise.all of fetches) must get them.
    let gone = false;
    reply.raw.once('close', () => (gone = true));
    const release = await turn;
    let body: Buffer;
    try {
      if (gone) return reply.hijack();
      const { uri, id } = request.params;
      const entries = insights.entries(uri, id, resolution);
      if (!entries) throw new HttpError(404, 'unknown_log', `There is no log ${id} of ${uri} on this hub.`);
      body = await entriesJson(entries);
    } finally {
      release();
    }
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  });
}
