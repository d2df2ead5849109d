/**
 * The integration project's global setup: the services built to plain JavaScript (out/services,
 * scripts/build-services.ts) for the tests that run them as deployed, once per run and only when a
 * source changed since the last build.
 */
import { buildServicesWhenStale } from '../../scripts/build-services';

export default async function setup(): Promise<void> {
  await buildServicesWhenStale();
}
