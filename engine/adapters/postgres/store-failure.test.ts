import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { PoolBusyError } from './client.ts';
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
