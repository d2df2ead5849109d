/** Entry point of the browser host (`tsx main/browser-host/bin.ts [--profile dir] [--port n] [--skip-build]`). */
import { runBrowserHost } from './cli';

runBrowserHost().catch((error: unknown) => {
  process.stderr.write(`Hubdesk could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
