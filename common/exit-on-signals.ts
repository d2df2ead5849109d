/** How the command-line programs (the services', and the app's `listen`) stop: once, on the first SIGINT or SIGTERM. */
import type { Logger } from './logger';
import { errorMessage } from './error-message';

/** On the first SIGINT or SIGTERM, runs `stop` and exits 0, or 1 when it fails; later signals are ignored while it runs. */
export function exitOnSignals(logger: Logger, name: string, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${name}: stopping`, { signal });
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`${name}: error while stopping`, { error: errorMessage(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
