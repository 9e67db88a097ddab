import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { noteBackupDraft, removeDeadDrafts } from './backup-drafts.ts';

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mnemo-drafts-'));
  after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** The pid of a process that has ended. */
function endedPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  assert.equal(r.status, 0);
  return r.pid;
}

const note = (d: string, pid: number, body: unknown) =>
  writeFileSync(join(d, `mnemo.backup-${pid}-0a1b2c3d.json`), JSON.stringify(body));

describe("drafts of a data dir's backups and restores", () => {
  it("removes a restore's draft whose process ended, with its journal, and keeps a running one's", () => {
    const d = dir();
    const pid = endedPid();
    writeFileSync(join(d, `mnemo.db.restoring-${pid}`), 'x');
    // SQLite's journal beside a copy VACUUM INTO was writing when its process was killed.
    writeFileSync(join(d, `mnemo.db.restoring-${pid}-journal`), 'j');
    writeFileSync(join(d, `mnemo.db.restoring-${process.pid}`), 'y');
    assert.deepEqual(removeDeadDrafts(d), [{ file: join(d, `mnemo.db.restoring-${pid}`), pid }]);
    assert.deepEqual(readdirSync(d), [`mnemo.db.restoring-${process.pid}`]);
  });

  it('drops the note of a backup that finished, which names no file left', () => {
    const d = dir();
    const drop = noteBackupDraft(d, join(d, `out.db.partial-${process.pid}`));
    assert.equal(readdirSync(d).length, 1);
    drop();
    assert.deepEqual(readdirSync(d), []);
    const pid = endedPid();
    note(d, pid, { pid, host: hostname(), draft: join(d, `gone.db.partial-${pid}`) });
    assert.deepEqual(removeDeadDrafts(d), []);
    assert.deepEqual(readdirSync(d), [], 'its note goes');
  });

  it("leaves another machine's backups, and never removes a file a note names that is no draft", () => {
    const d = dir();
    const pid = endedPid();
    const elsewhere = join(d, `shared.db.partial-${pid}`);
    writeFileSync(elsewhere, 'x');
    note(d, pid, { pid, host: `not-${hostname()}`, draft: elsewhere });
    const other = endedPid();
    const precious = join(d, 'notes.txt');
    writeFileSync(precious, 'mine');
    note(d, other, { pid: other, host: hostname(), draft: precious });
    assert.deepEqual(removeDeadDrafts(d), []);
    assert.ok(existsSync(elsewhere));
    assert.ok(existsSync(precious));
    assert.ok(existsSync(join(d, `mnemo.backup-${pid}-0a1b2c3d.json`)), "the other machine's note stays");
  });
});
