import type { BackupSummary, RestoreSummary } from '../engine/index.ts';

/**
 * What the application menu does, written against the effects it needs (dialogs, the clipboard, the
 * store's backup and restore, the server) so it runs under a test without Electron; main.ts passes
 * Electron's own.
 */
export interface MenuEffects {
  /** A save dialog; resolves to the chosen path, or null when cancelled. */
  chooseBackupFile(defaultName: string): Promise<string | null>;
  /** An open dialog; resolves to the chosen path, or null when cancelled. */
  chooseRestoreFile(): Promise<string | null>;
  /** Asks a yes/no question; resolves true for yes. */
  confirm(message: string, detail: string): Promise<boolean>;
  inform(message: string, detail: string): Promise<void>;
  fail(message: string, detail: string): Promise<void>;
  backup(out: string): Promise<BackupSummary>;
  restore(from: string): Promise<RestoreSummary>;
  /** Stops the server (in-flight requests finish) and closes the store, so restore may replace it. */
  closeServer(): Promise<void>;
  /** Starts the app again (after a restore, on the store now in place). */
  relaunch(): void;
  openFolder(path: string): Promise<void>;
  copyText(text: string): void;
}

export interface AppFacts {
  version: string;
  dataDir: string;
  /** The /v1 base URL agents use. */
  apiUrl: string;
  engine: string;
  /** `provider:model`, or `none` while the semantic lane has no embedder (it loads in the background). */
  embedder: () => string;
  electron: string;
  node: string;
}

export type MenuAction = 'backup' | 'restore' | 'openDataFolder' | 'copyApiAddress' | 'about';

/** `mnemo-backup-2026-05-03-1402.db`: sortable, and a second backup the same day gets another name. */
export function defaultBackupName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `mnemo-backup-${day}-${pad(now.getHours())}${pad(now.getMinutes())}.db`;
}

function counts(s: BackupSummary): string {
  return `${s.brains} brain(s), ${s.records} record(s), ${s.memories} memory(ies)`;
}

export function aboutDetail(facts: AppFacts): string {
  return [
    `Version ${facts.version}`,
    `Data folder: ${facts.dataDir}`,
    `Engine: ${facts.engine}`,
    `Embedder: ${facts.embedder()}`,
    `API: ${facts.apiUrl}`,
    `Electron ${facts.electron}, Node ${facts.node}`,
  ].join('\n');
}

const keyReminder =
  "It is encrypted with this computer's database key (kept in the system keychain): keep the key with the backup, or the backup cannot be read elsewhere. API keys are not part of it.";

export function createMenuActions(
  effects: MenuEffects,
  facts: AppFacts,
  now: () => Date = () => new Date(),
): Record<MenuAction, () => Promise<void>> {
  return {
    async backup() {
      const out = await effects.chooseBackupFile(defaultBackupName(now()));
      if (!out) return;
      let summary: BackupSummary;
      try {
        summary = await effects.backup(out);
      } catch (e) {
        await effects.fail('The backup was not written', (e as Error).message);
        return;
      }
      await effects.inform('Backup written', `${summary.file}\n${counts(summary)}.\n\n${keyReminder}`);
    },

    async restore() {
      const from = await effects.chooseRestoreFile();
      if (!from) return;
      const yes = await effects.confirm(
        'Restore this backup?',
        `${from}\n\nMnemo restarts on the backup. The memory it holds now is kept beside it in ` +
          `${facts.dataDir} (mnemo.db.replaced-…), not deleted. Agents using the API are disconnected ` +
          'for a moment.',
      );
      if (!yes) return;
      // The store can only be replaced while no server has it open.
      await effects.closeServer();
      try {
        const s = await effects.restore(from);
        await effects.inform(
          'Backup restored',
          `${counts(s)}.${s.replaced ? `\nThe store it replaced was kept as ${s.replaced}.` : ''}`,
        );
      } catch (e) {
        await effects.fail('The backup was not restored; your memory is as it was', (e as Error).message);
      } finally {
        effects.relaunch();
      }
    },

    async openDataFolder() {
      await effects.openFolder(facts.dataDir);
    },

    async copyApiAddress() {
      effects.copyText(facts.apiUrl);
    },

    async about() {
      await effects.inform(`Mnemo ${facts.version}`, aboutDetail(facts));
    },
  };
}

/** The parts of Electron's MenuItemConstructorOptions the template uses. */
export interface MenuItemSpec {
  label?: string;
  role?: string;
  type?: 'separator' | 'submenu';
  accelerator?: string;
  action?: MenuAction;
  submenu?: MenuItemSpec[];
}

/**
 * The application menu: Mnemo's own items under File (and, on macOS, the app menu), the usual Edit and
 * View roles (copy and paste in the UI's fields need them), Window, and Help with About.
 */
export function menuTemplate(platform: NodeJS.Platform): MenuItemSpec[] {
  const mac = platform === 'darwin';
  const about: MenuItemSpec = { label: 'About Mnemo', action: 'about' };
  const file: MenuItemSpec[] = [
    { label: 'Back Up…', action: 'backup', accelerator: 'CmdOrCtrl+Shift+B' },
    { label: 'Restore…', action: 'restore' },
    { type: 'separator' },
    { label: 'Open Data Folder', action: 'openDataFolder' },
    { label: 'Copy API Address', action: 'copyApiAddress' },
    ...(mac ? [] : [{ type: 'separator' } as MenuItemSpec, { role: 'quit' }]),
  ];
  const menu: MenuItemSpec[] = [
    ...(mac
      ? [
          {
            label: 'Mnemo',
            submenu: [
              about,
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } as MenuItemSpec,
        ]
      : []),
    { label: 'File', submenu: file },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: 'Window', submenu: [{ role: 'minimize' }, ...(mac ? [{ role: 'zoom' }] : [{ role: 'close' }])] },
    { label: 'Help', submenu: mac ? [] : [about] },
  ];
  return menu.filter((m) => !(m.submenu && m.submenu.length === 0));
}
