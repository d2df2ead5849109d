/**
 * The insights routes (common/insights.ts, docs/interface.md "Insights"): the list of logs and a log's
 * entries at a resolution. Scope `insights.readonly`; refusals as on every hub route (hub-access).
 * `:uri` and `:id` arrive URL-decoded, so the official client's raw colons and an app's `%3A` are the same.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_INSIGHTS_RESOLUTION, INSIGHTS_RESOLUTION_NAMES, isInsightsResolution } from '../../../common/insights';
import { HttpError, invalidRequest } from '../../shared/http-error';
import { Params } from '../../shared/params';
import { authorise } from '../hub-access';
import type { HubSessionStore } from '../hub-sessions';
import type { InsightsRecorder } from './recorder';

export interface InsightsRouteDeps {
  insights: InsightsRecorder;
  sessions: HubSessionStore;
}

export function registerInsightsRoutes(app: FastifyInstance, { insights, sessions }: InsightsRouteDeps): void {
  app.get('/api/manager/insights/log', async (request, reply) => {
    authorise(sessions, request, 'insights.readonly');
    return reply.header('cache-control', 'no-store').send(insights.logs());
  });

  app.get<{ Params: { uri: string; id: string } }>('/api/manager/insights/log/:uri/:id/entry', async (request, reply) => {
    authorise(sessions, request, 'insights.readonly');
    const resolution = Params.ofQuery(request).optional('resolution') ?? DEFAULT_INSIGHTS_RESOLUTION;
    if (!isInsightsResolution(resolution)) throw invalidRequest(`resolution must be one of: ${INSIGHTS_RESOLUTION_NAMES.join(', ')}.`);
    const { uri, id } = request.params;
    const entries = insights.entries(uri, id, resolution);
    if (!entries) throw new HttpError(404, 'unknown_log', `There is no log ${id} of ${uri} on this hub.`);
    return reply.header('cache-control', 'no-store').send(entries);
  });
}
