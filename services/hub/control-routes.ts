/**
 * The hub's control routes (common/hub-control.ts): setting a capability, the flows, and what the
 * caller's session may do. Every body is checked with the shared schemas; every refusal is a JSON
 * error with a sentence saying why.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type SessionInfo, SetCapabilityBodySchema } from '../../common/hub-control';
import type { Logger } from '../../common/logger';
import { HttpError, invalidRequest } from '../shared/http-error';
import type { DemoFlows } from './demo-flows';
import type { DemoHome } from './demo-home';
import { authorise } from './hub-access';
import type { HubSessionStore } from './hub-sessions';
import { officialScopes } from './official-scopes';

export interface ControlRouteDeps {
  hubId: string;
  home: DemoHome;
  flows: DemoFlows;
  sessions: HubSessionStore;
  logger: Logger;
}

export function registerControlRoutes(app: FastifyInstance, { hubId, home, flows, sessions, logger }: ControlRouteDeps): void {
  app.put<{ Params: { id: string; capabilityId: string } }>('/api/manager/devices/device/:id/capability/:capabilityId', async (request, reply) => {
    authorise(sessions, request, 'devices');
    const body = SetCapabilityBodySchema.safeParse(request.body);
    if (!body.success)
      throw invalidRequest(
        'The body must be a JSON object {value, transactionId?}: value a boolean, finite number or string; transactionId 1–100 letters, digits, "-" or "_".',
      );
    const { id, capabilityId } = request.params;
    const outcome = home.setCapability(id, capabilityId, body.data.value, body.data.transactionId ?? `hub-${randomUUID()}`);
    if (!outcome.ok) {
      logger.info('hub: capability change refused', { hubId, error: outcome.refusal.error });
      throw new HttpError(outcome.refusal.status, outcome.refusal.error, outcome.refusal.description);
    }
    return reply.header('cache-control', 'no-store').send(outcome.event);
  });

  app.get('/api/manager/flow/flow', async (request, reply) => {
    authorise(sessions, request, 'flow.readonly');
    return reply.header('cache-control', 'no-store').send(flows.list());
  });

  app.post<{ Params: { id: string } }>('/api/manager/flow/flow/:id/trigger', async (request, reply) => {
    authorise(sessions, request, 'flow.start');
    const outcome = flows.trigger(request.params.id);
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.error, outcome.description);
    logger.info('hub: flow triggered', { hubId, flowId: outcome.result.id });
    return reply.header('cache-control', 'no-store').send(outcome.result);
  });

  app.get('/api/manager/sessions/session/me', async (request, reply) => {
    const session = authorise(sessions, request);
    // intersectedScopes: the same scopes in the official client's names, which it checks before a call.
    const info: SessionInfo & { intersectedScopes: string[] } = {
      scopes: [...session.scopes],
      expiresAt: new Date(session.expiresAt).toISOString(),
      intersectedScopes: officialScopes(session.scopes),
    };
    return reply.header('cache-control', 'no-store').send(info);
  });
}
