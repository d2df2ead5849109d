/**
 * Reading the home one piece at a time, as the official client (homey-api) does beside the device
 * list: one device, the zones, one zone. The scope is `devices.readonly` (or `devices`) for all of
 * them: the device list already names every device's zone. Unknown ids are a 404 with a sentence.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../shared/http-error';
import type { DemoHome } from './demo-home';
import { authorise } from './hub-access';
import type { HubSessionStore } from './hub-sessions';

export interface HomeRouteDeps {
  home: DemoHome;
  sessions: HubSessionStore;
}

export function registerHomeRoutes(app: FastifyInstance, { home, sessions }: HomeRouteDeps): void {
  app.get<{ Params: { id: string } }>('/api/manager/devices/device/:id', async (request, reply) => {
    authorise(sessions, request, 'devices.readonly');
    const device = home.device(request.params.id);
    if (!device) throw new HttpError(404, 'unknown_device', `There is no device ${request.params.id} on this hub.`);
    return reply.header('cache-control', 'no-store').send(device);
  });

  app.get('/api/manager/zones/zone', async (request, reply) => {
    authorise(sessions, request, 'devices.readonly');
    return reply.header('cache-control', 'no-store').send(home.zones());
  });

  app.get<{ Params: { id: string } }>('/api/manager/zones/zone/:id', async (request, reply) => {
    authorise(sessions, request, 'devices.readonly');
    const zones = home.zones();
    const zone = Object.hasOwn(zones, request.params.id) ? zones[request.params.id] : undefined;
    if (!zone) throw new HttpError(404, 'unknown_zone', `There is no zone ${request.params.id} on this hub.`);
    return reply.header('cache-control', 'no-store').send(zone);
  });
}
