import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { hashKey } from '../../auth/api-key.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { connectPostgres, PoolBusyError } from './client.ts';
import { pgKeyRegistry } from './key-registry.ts';
import { asStoreError, overloaded, storeFailure, storeUnavailable, unreachable } from './store-failure.ts';

const withCode = (code: string) => Object.assign(new Error(code), { code });

test('a server that cannot be reached is told apart from a statement that failed or lost a race', () => {
  for (const e of [
    withCode('ECONNREFUSED'),
    withCode('ECONNRESET'),
    withCode('08006'),
    withCode('57P01'),
    withCode('57P03'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
  ])
    assert.ok(unreachable(e) && storeFailure(e), e.message);
  // Transient, and the job is tried again, but the server answered: no outage to report.
  for (const code of ['40001', '40P01', '53300', '57014']) {
    assert.ok(storeFailure(withCode(code)), code);
    assert.ok(!unreachable(withCode(code)), code);
  }
  for (const e of [withCode('23505'), withCode('42P01'), new Error('syntax error'), null, 'text'])
    assert.ok(!unreachable(e) && !storeFailure(e), String(e));
});

test('a server stopped behind a Unix socket (no socket file in its directory) is an outage', async (t) => {
  // A real pool on a directory no server listens in, as a hosted server on ?host=/dir sees PostgreSQL
  // stopped: pg fails to connect with `connect ENOENT <dir>/.s.PGSQL.<port>`.
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-nosocket-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = connectPostgres(`postgres://mnemo:secret@/mnemo?host=${dir}&port=5432`, {
    connectionTimeoutMs: 5_000,
  });
  t.after(() => db.close());
  const failed = await db.query('SELECT 1').then(
    () => assert.fail('connected to a directory with no server'),
    (e: unknown) => e,
  );
  assert.deepEqual(
    [(failed as { code?: unknown }).code, (failed as { syscall?: unknown }).syscall],
    ['ENOENT', 'connect'],
  );
  assert.ok(unreachable(failed) && storeFailure(failed));
  const told = asStoreError(failed);
  assert.ok(told instanceof MnemoError);
  assert.deepEqual([told.code, told.status], ['store_unavailable', 503]);
  // A key that must be looked up meanwhile: the registry's own code, not an internal_error.
  await assert.rejects(pgKeyRegistry(db).byHash(hashKey('sk_test_acme_x')), (e: unknown) => {
    assert.ok(e instanceof MnemoError);
    assert.deepEqual([e.code, e.status], ['key_registry_unreadable', 500]);
    return true;
  });
});

test('a socket this process may not open is an outage; a file the URL names that is missing is not', () => {
  // As pg reports connect() on a socket without write permission (captured running as nobody).
  const denied = Object.assign(withCode('EACCES'), { syscall: 'connect', address: '/run/pg/.s.PGSQL.5432' });
  assert.ok(unreachable(denied) && storeFailure(denied));
  // The same codes from opening a file (an sslrootcert that is not there) are the URL's mistake.
  for (const code of ['ENOENT', 'EACCES']) {
    const e = Object.assign(withCode(code), { syscall: 'open', path: '/etc/ssl/missing.crt' });
    assert.ok(!unreachable(e) && !storeFailure(e), code);
    assert.equal(asStoreError(e), e);
  }
});

test('a database that refuses new connections (dropped, or its role or password changed) is an outage', () => {
  // What PostgreSQL answers as a connection opens: `database "x" does not exist`, `role "x" does not
  // exist`, `password authentication failed`. GET /v1/health calls them store_unavailable already.
  for (const code of ['3D000', '28000', '28P01']) {
    const e = withCode(code);
    assert.ok(unreachable(e) && storeFailure(e), code);
    const told = asStoreError(e);
    assert.ok(told instanceof MnemoError, code);
    assert.deepEqual([told.code, told.status], ['store_unavailable', 503]);
  }
});

test('a database that takes no new connections now, or no longer from this role, is an outage', () => {
  // As pg reports them (captured from PostgreSQL 15): ALTER DATABASE ... ALLOW_CONNECTIONS false, and
  // REVOKE CONNECT ON DATABASE. Raised as the session is set up, never by a statement.
  const refused = (code: string, message: string) =>
    Object.assign(new Error(message), {
      code,
      severity: 'FATAL',
      file: 'postinit.c',
      routine: 'CheckMyDatabase',
    });
  for (const e of [
    refused('55000', 'database "mnemo" is not currently accepting connections'),
    refused('42501', 'permission denied for database "mnemo"'),
  ]) {
    assert.ok(unreachable(e) && storeFailure(e), e.message);
    const told = asStoreError(e);
    assert.ok(told instanceof MnemoError, e.message);
    assert.deepEqual([told.code, told.status], ['store_unavailable', 503]);
  }
  // The same codes from a statement are that statement's failure; too many connections, an overload.
  for (const code of ['55000', '42501']) assert.ok(!unreachable(withCode(code)), code);
  const full = Object.assign(withCode('53300'), { file: 'postinit.c' });
  assert.ok(overloaded(full) && !unreachable(full));
});

test('an operation that could not reach the database is store_unavailable, its cause kept for the log', () => {
  const cause = withCode('ECONNREFUSED');
  const e = storeUnavailable(cause);
  assert.ok(e instanceof MnemoError);
  assert.deepEqual([e.code, e.status, e.type], ['store_unavailable', 503, 'internal']);
  assert.equal(e.cause, cause);
  assert.match(e.message, /same Idempotency-Key/);
});

test('a database that answers but cannot take the work is store_unavailable saying so, and no outage', () => {
  const busy = new PoolBusyError(10, 15_000, new Error('timeout exceeded when trying to connect'));
  for (const e of [busy, withCode('53300'), withCode('53100')]) {
    assert.ok(overloaded(e) && storeFailure(e) && !unreachable(e), e.message);
    const told = asStoreError(e);
    assert.ok(told instanceof MnemoError);
    assert.deepEqual([told.code, told.status], ['store_unavailable', 503]);
    assert.match(told.message, /overloaded/);
    assert.equal(told.cause, e);
  }
  const down = asStoreError(withCode('ECONNREFUSED'));
  assert.ok(down instanceof MnemoError && /cannot be reached/.test(down.message));
  const other = withCode('23505');
  assert.equal(asStoreError(other), other, 'a failed statement stays what it is');
});

test('a statement the database cancelled (statement_timeout, pg_cancel_backend) is store_unavailable', () => {
  const told = asStoreError(withCode('57014'));
  assert.ok(told instanceof MnemoError);
  assert.deepEqual([told.code, told.status], ['store_unavailable', 503]);
  assert.match(told.message, /^The database cancelled a statement of this request/);
});
