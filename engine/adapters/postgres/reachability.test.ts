import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PoolBusyError, type PgClient } from './client.ts';
import { watchReachability } from './reachability.ts';

const withCode = (code: string) => Object.assign(new Error(code), { code });

/** A client whose every call fails with what `failing` holds, or answers when it holds null. */
function scripted(failing: { now: unknown }): PgClient {
  const call = async <T>(answer: T): Promise<T> => {
    if (failing.now !== null) throw failing.now;
    return answer;
  };
  return {
    query: () => call({ rows: [], rowCount: 0 }),
    exec: () => call(undefined),
    transaction: () => call(undefined as never),
    ping: () => call(undefined),
    close: async () => {},
  };
}

test('an outage is told once and its end once; a busy pool at most once a minute, with its count', async () => {
  const told: string[] = [];
  let clock = 0;
  const failing: { now: unknown } = { now: null };
  const db = watchReachability(
    scripted(failing),
    {
      lost: () => told.push('lost'),
      back: (ms) => told.push(`back after ${ms}`),
      busy: (n, cause) => told.push(`busy ${n}: ${(cause as Error).message}`),
    },
    { now: () => clock },
  );
  const attempt = () => db.query('SELECT 1').catch(() => {});

  failing.now = new PoolBusyError(10, 15_000, new Error('timeout exceeded when trying to connect'));
  for (let i = 0; i < 3; i++) await attempt();
  clock = 30_000;
  await attempt();
  clock = 60_000;
  await attempt();
  failing.now = null;
  await attempt();
  const busyLine = "busy %d: every one of the pool's 10 connections to the database stayed in use for 15 s";
  assert.deepEqual(
    told,
    [busyLine.replace('%d', '1'), busyLine.replace('%d', '4')],
    'a busy pool is no outage, and has no end to tell',
  );

  told.length = 0;
  failing.now = withCode('ECONNREFUSED');
  clock = 100_000;
  await attempt();
  clock = 101_000;
  await db.ping(100).catch(() => {});
  failing.now = null;
  clock = 104_500;
  await db.ping(100);
  await attempt();
  assert.deepEqual(told, ['lost', 'back after 4500'], 'a ping that answers ends the outage too');
});

test('made unarmed, nothing is told until arm(); then an outage is', async () => {
  const told: string[] = [];
  const failing: { now: unknown } = { now: withCode('3D000') };
  const db = watchReachability(
    scripted(failing),
    { lost: () => told.push('lost'), back: () => told.push('back') },
    { armed: false },
  );
  await db.query('SELECT 1').catch(() => {});
  failing.now = null;
  await db.query('SELECT 1');
  assert.deepEqual(told, [], 'a failure while opening is the open’s to say');
  db.arm();
  failing.now = withCode('ECONNREFUSED');
  await db.query('SELECT 1').catch(() => {});
  failing.now = null;
  await db.query('SELECT 1');
  assert.deepEqual(told, ['lost', 'back']);
});
