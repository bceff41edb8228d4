import { join } from 'node:path';
import { openDesk } from '../../electron/core/desk.ts';
import { startWebHost } from '../../electron/host/web.ts';

// The desk as `npm start` serves it without Electron (core + web host in one process), for the UI
// benchmark: argv = <home> <sandbox credentials.json> <renderer dir>. Prints the address when ready; like
// `npm start`, on the port it kept in the home (electron/start.ts).

const [home, credentials, staticDir] = process.argv.slice(2) as [string, string, string];
const core = openDesk({ home, sandboxCredentialsPath: credentials, log: () => {} });
const host = await startWebHost({ core, staticDir, portFile: join(home, 'web-port') });
process.stdout.write(`URL ${host.url}\n`);
const stop = () =>
  void host
    .close()
    .then(() => core.close())
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
