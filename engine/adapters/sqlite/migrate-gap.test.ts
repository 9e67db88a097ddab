import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { migrate } from './migrate.ts';
import { openDatabase } from './open-database.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-migrate-gap-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const m = (version: number) => ({
  version,
  name: `m${version}`,
  sql: `CREATE TABLE t${version} (x INTEGER);`,
});

it('applies increasing versions with a number missing, and refuses versions out of order', () => {
  const db = openDatabase({ file: join(dir, 'gap.db'), key: null });
  try {
    assert.deepEqual(migrate(db, [m(1), m(3)]), [1, 3]);
    assert.equal(db.pragma('user_version', { simple: true }), 3);
    assert.deepEqual(migrate(db, [m(1), m(3), m(4)]), [4]);
    assert.throws(() => migrate(db, [m(1), m(4), m(3)]), /version 3, expected more than 4/);
  } finally {
    db.close();
  }
});

const failing = (version: number) => ({ version, name: `m${version}`, sql: 'CREATE TABLE broken (' });
const tables = (db: ReturnType<typeof openDatabase>): string[] =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);

it('makes a new store whole or not at all: a failing migration leaves it empty at version 0', () => {
  const db = openDatabase({ file: join(dir, 'new.db'), key: null });
  try {
    assert.throws(() => migrate(db, [m(1), m(2), failing(3)]), /incomplete input/);
    assert.equal(db.pragma('user_version', { simple: true }), 0);
    assert.deepEqual(tables(db), []);
  } finally {
    db.close();
  }
});

it('keeps each applied migration of an existing store when a later one fails', () => {
  const db = openDatabase({ file: join(dir, 'existing.db'), key: null });
  try {
    migrate(db, [m(1)]);
    assert.throws(() => migrate(db, [m(1), m(2), failing(3)]), /incomplete input/);
    assert.equal(db.pragma('user_version', { simple: true }), 2);
    assert.deepEqual(tables(db), ['t1', 't2']);
  } finally {
    db.close();
  }
});
