/**
 * The global setup of the integration project and of Playwright's projects (playwright.config.ts): the
 * services built to plain JavaScript (out/services, scripts/build-services.ts) for the tests that run
 * them as deployed and the end-to-end tests' stack, once per run and only when a source changed since the
 * last build.
 */
import { buildServicesWhenStale } from '../../scripts/build-services';

export default async function setup(): Promise<void> {
  await buildServicesWhenStale();
}
