import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { storeFailure, storeUnavailable, unreachable } from './store-failure.ts';

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

test('an operation that could not reach the database is store_unavailable, its cause kept for the log', () => {
  const cause = withCode('ECONNREFUSED');
  const e = storeUnavailable(cause);
  assert.ok(e instanceof MnemoError);
  assert.deepEqual([e.code, e.status, e.type], ['store_unavailable', 503, 'internal']);
  assert.equal(e.cause, cause);
  assert.match(e.message, /same Idempotency-Key/);
});
