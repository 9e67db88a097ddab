/**
 * The desktop shell: one instance, the engine and /v1 server in-process on 127.0.0.1, one hardened
 * window showing the same UI `mnemo serve --ui` serves. Every decision lives in a small pure module
 * beside this file; this one only wires them to Electron.
 */
import { BrowserWindow, app, ipcMain, safeStorage, session, shell, type WebContents } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../server/start-server.ts';
import { withCsp } from './csp.ts';
import { desktopServerOptions } from './desktop-server.ts';
import { loadOrCreateDbKey } from './db-key.ts';
import { createKeyHandoff, openExternalChannel, sessionChannel, warningsChannel } from './key-handoff.ts';
import { externalUrlAllowed, navigationDecision } from './url-trust.ts';
import { windowOptions } from './window-options.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

async function openEngine(): Promise<{ server: RunningServer; warnings: string[] }> {
  const userData = app.getPath('userData');
  const dbKey = loadOrCreateDbKey(join(userData, 'db-key'), safeStorage);
  const server = await startServer(desktopServerOptions({ userData, bundleDir: here, dbKey: dbKey.key }));
  return { server, warnings: dbKey.warning ? [dbKey.warning] : [] };
}

function harden(contents: WebContents, appOrigin: string): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (navigationDecision(url, appOrigin) === 'open-external') void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    const decision = navigationDecision(url, appOrigin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') void shell.openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (navigationDecision(url, appOrigin) !== 'allow') event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

async function run(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  const { server, warnings } = await openEngine();
  const appOrigin = server.origin;

  // The UI's key: admin (it manages keys), minted per run; the server revokes it when it closes on
  // quit, or at the next start if the app never got to quit (a crash, a kill, a power loss).
  const apiKey = server.mintSessionKey('desktop app');
  const handoff = createKeyHandoff({ baseUrl: server.url, apiKey }, appOrigin);

  ipcMain.handle(sessionChannel, (event) => handoff.sessionFor(event.senderFrame?.url));
  ipcMain.handle(warningsChannel, () => warnings);
  ipcMain.handle(openExternalChannel, async (_event, url: unknown) => {
    if (typeof url !== 'string' || !externalUrlAllowed(url)) return false;
    await shell.openExternal(url);
    return true;
  });

  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: withCsp(details.url, appOrigin, details.responseHeaders) }),
  );
  app.on('web-contents-created', (_e, contents) => harden(contents, appOrigin));

  const win = new BrowserWindow(windowOptions(join(here, 'preload.cjs')));
  win.once('ready-to-show', () => win.show());
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  await win.loadURL(`${appOrigin}/`);

  let closed = false;
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    void (async () => {
      try {
        await server.close();
      } finally {
        app.quit();
      }
    })();
  });
}

run().catch((e: unknown) => {
  console.error('Mnemo could not start:', e);
  app.exit(1);
});
