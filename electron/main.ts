/**
 * The desktop shell: one instance, the engine and /v1 server in-process on 127.0.0.1, one hardened
 * window showing the same UI `mnemo serve --ui` serves, and the application menu. Every decision lives
 * in a small pure module beside this file; this one only wires them to Electron. It runs bundled
 * (scripts/build-electron.mjs), as dist/electron/main.mjs.
 */
import {
  BrowserWindow,
  Menu,
  app,
  clipboard,
  dialog,
  ipcMain,
  safeStorage,
  screen,
  session,
  shell,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backupStore, restoreStore } from '../engine/index.ts';
import { startServer, type RunningServer } from '../server/start-server.ts';
import { withCsp } from './csp.ts';
import { loadOrCreateDbKey } from './db-key.ts';
import { desktopServerOptions, startDesktopServer } from './desktop-server.ts';
import { createKeyHandoff, openExternalChannel, sessionChannel, warningsChannel } from './key-handoff.ts';
import {
  createMenuActions,
  menuTemplate,
  type AppFacts,
  type MenuAction,
  type MenuEffects,
  type MenuItemSpec,
} from './menu-actions.ts';
import { startupFailure } from './startup-failure.ts';
import { navigationDecision, openExternalAllowed, senderOf } from './url-trust.ts';
import { windowOptions } from './window-options.ts';
import { readWindowState, writeWindowState } from './window-state.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
let win: BrowserWindow | null = null;

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

function electronMenu(
  items: MenuItemSpec[],
  actions: Record<MenuAction, () => Promise<void>>,
): MenuItemConstructorOptions[] {
  return items.map((item) => ({
    ...(item.label ? { label: item.label } : {}),
    ...(item.role ? { role: item.role as MenuItemConstructorOptions['role'] } : {}),
    ...(item.type ? { type: item.type } : {}),
    ...(item.accelerator ? { accelerator: item.accelerator } : {}),
    ...(item.submenu ? { submenu: electronMenu(item.submenu, actions) } : {}),
    ...(item.action
      ? {
          click: () => {
            actions[item.action!]().catch((e: unknown) => {
              dialog.showErrorBox('Mnemo', (e as Error).message);
            });
          },
        }
      : {}),
  }));
}

function menuEffects(input: {
  dataDir: string;
  dbKey: string;
  closeServer: () => Promise<void>;
}): MenuEffects {
  const message = async (type: 'info' | 'error', message: string, detail: string) => {
    const options = { type, message, detail, buttons: ['OK'] };
    await (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
  };
  return {
    async chooseBackupFile(defaultName) {
      const r = await dialog.showSaveDialog(win!, {
        title: 'Back up Mnemo',
        defaultPath: join(app.getPath('documents'), defaultName),
        filters: [{ name: 'Mnemo backup', extensions: ['db'] }],
      });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    async chooseRestoreFile() {
      const r = await dialog.showOpenDialog(win!, {
        title: 'Restore a Mnemo backup',
        properties: ['openFile'],
        filters: [{ name: 'Mnemo backup', extensions: ['db'] }],
      });
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
    async confirm(message, detail) {
      const r = await dialog.showMessageBox(win!, {
        type: 'warning',
        message,
        detail,
        buttons: ['Restore', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
      });
      return r.response === 0;
    },
    inform: (m, d) => message('info', m, d),
    fail: (m, d) => message('error', m, d),
    backup: (out) => backupStore({ dataDir: input.dataDir, key: input.dbKey, out }),
    restore: (from) => restoreStore({ dataDir: input.dataDir, key: input.dbKey, from }),
    closeServer: input.closeServer,
    relaunch() {
      app.relaunch();
      app.quit();
    },
    async openFolder(path) {
      const error = await shell.openPath(path);
      if (error) throw new Error(`cannot open ${path}: ${error}`);
    },
    copyText: (text) => clipboard.writeText(text),
  };
}

function openWindow(userData: string, appOrigin: string): BrowserWindow {
  const stateFile = join(userData, 'window-state.json');
  const state = readWindowState(
    stateFile,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const w = new BrowserWindow(windowOptions(join(here, 'preload.cjs'), state.bounds));
  if (state.maximized) w.maximize();
  w.once('ready-to-show', () => w.show());
  w.on('close', () => {
    try {
      writeWindowState(stateFile, { bounds: w.getNormalBounds(), maximized: w.isMaximized() });
    } catch (e) {
      console.error('Mnemo: could not save the window size and position:', e);
    }
  });
  void w.loadURL(`${appOrigin}/`);
  return w;
}

async function run(): Promise<void> {
  await app.whenReady();
  const userData = app.getPath('userData');
  const dbKey = loadOrCreateDbKey(join(userData, 'db-key'), safeStorage);
  const options = desktopServerOptions({
    userData,
    bundleDir: here,
    dbKey: dbKey.key,
    resourcesDir: app.isPackaged ? process.resourcesPath : undefined,
  });
  const started = await startDesktopServer(startServer, options);
  const server: RunningServer = started.server;
  const warnings = [dbKey.warning, started.warning].filter((w): w is string => !!w);
  const appOrigin = server.origin;
  // Quitting and restoring both stop the server once: in-flight requests finish (up to its grace).
  let closing: Promise<void> | null = null;
  const closeServer = () => (closing ??= server.close());

  // The UI's key: admin (it manages keys), minted per run; the server revokes it when it closes on
  // quit, or at the next start if the app never got to quit (a crash, a kill, a power loss).
  const apiKey = await server.mintSessionKey('desktop app');
  const handoff = createKeyHandoff({ baseUrl: server.url, apiKey }, appOrigin);

  ipcMain.handle(sessionChannel, (event) => handoff.sessionFor(senderOf(event.senderFrame)));
  ipcMain.handle(warningsChannel, () => warnings);
  ipcMain.handle(openExternalChannel, async (event, url: unknown) => {
    if (!openExternalAllowed(senderOf(event.senderFrame), url, appOrigin)) return false;
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

  const facts: AppFacts = {
    version: app.getVersion(),
    dataDir: options.dataDir!,
    apiUrl: server.url,
    engine: 'local (encrypted SQLite)',
    embedder: () => server.engine.info.embedder ?? 'none',
    electron: process.versions.electron ?? '',
    node: process.versions.node,
  };
  const actions = createMenuActions(
    menuEffects({ dataDir: options.dataDir!, dbKey: dbKey.key, closeServer }),
    facts,
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(electronMenu(menuTemplate(process.platform), actions)));

  win = openWindow(userData, appOrigin);
  win.on('closed', () => (win = null));

  let closed = false;
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    void closeServer().finally(() => app.quit());
  });
}

// One instance per user: a second start focuses the first one's window and ends.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });
  run().catch((e: unknown) => {
    console.error('Mnemo could not start:', e);
    const { title, message } = startupFailure(e);
    dialog.showErrorBox(title, message);
    app.exit(1);
  });
}
