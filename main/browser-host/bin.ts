/** Entry point of the browser host (`tsx main/browser-host/bin.ts [--profile dir] [--port n] [--skip-build]`). */
import { runBrowserHost } from './cli';
import { errorMessage } from '../../common/error-message';

runBrowserHost().catch((error: unknown) => {
  process.stderr.write(`Hubdesk could not start: ${errorMessage(error)}\n`);
  process.exit(1);
});
