/**
 * The desktop app's server, started as the app starts it but under plain Node: built beside main.mjs
 * (dist/electron/serve-without-electron.mjs) so a test can prove the bundled engine and server run
 * without tsx. Not packaged. Usage: node serve-without-electron.mjs USER_DATA_DIR [RESOURCES_DIR] (key in
 * MNEMO_DB_KEY); RESOURCES_DIR stands for a packaged app's resources (its word-vector table).
 */
import { fileURLToPath } from 'node:url';
import { startServer } from '../server/start-server.ts';
import { desktopServerOptions } from './desktop-server.ts';

const [userData, resourcesDir] = process.argv.slice(2);
const dbKey = process.env.MNEMO_DB_KEY;
if (!userData || !dbKey) {
  console.error('usage: MNEMO_DB_KEY=... node serve-without-electron.mjs USER_DATA_DIR [RESOURCES_DIR]');
  process.exit(2);
}
const bundleDir = fileURLToPath(new URL('.', import.meta.url));
// Any free port: tests start it, and the app's own port is startDesktopServer's to take.
const server = await startServer({
  ...desktopServerOptions({ userData, bundleDir, dbKey, resourcesDir }),
  port: 0,
});
process.stdout.write(`listening on ${server.url}\n`);
process.stdout.write(`session key ${await server.mintSessionKey('bundle check')}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
