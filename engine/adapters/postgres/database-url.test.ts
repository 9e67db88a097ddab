import assert from 'node:assert/strict';
import { test } from 'node:test';
import { databaseUrlProblem, shownUrl } from './database-url.ts';

test('a Unix socket named by ?host= with no host before the path is a database URL, as libpq takes it', () => {
  for (const ok of [
    'postgresql://postgres@/postgres?host=/tmp/pgqa&port=55433',
    'postgres://me:s3cret@/mnemo?host=/var/run/postgresql',
    'postgres://@/mnemo?host=/var/run/postgresql',
    'postgres:///mnemo?host=/var/run/postgresql',
    'postgres://postgres@localhost:55433/postgres?host=/tmp/pgqa',
    'postgres://%2Fvar%2Frun%2Fpostgresql:5432/mnemo',
    'postgres://me:s3cret@db.example.com:5432/mnemo',
    'postgres://me@/mnemo?host=db.example.com',
  ])
    assert.equal(databaseUrlProblem(ok), null, ok);
});

test('a database URL that libpq or pg could not read is refused, without repeating it', () => {
  const usage = /^must be a postgres:\/\/user:password@host:port\/database URL \(or .*\?host=\/socket\/dir/;
  for (const bad of [
    'db.example',
    'http://db.example/mnemo',
    // URLs to WHATWG, but libpq needs the `//` to read one as a URL at all.
    'postgres:mnemo',
    'postgres:/mnemo',
    // An empty host anywhere but right before the path is no form pg reads.
    'postgres://me:s3cret@?host=/tmp/pgqa',
    'postgres://me:s3cret@:5432/mnemo?host=/tmp/pgqa',
  ]) {
    const problem = databaseUrlProblem(bad);
    assert.match(problem ?? '', usage, bad);
    assert.ok(!problem!.includes('s3cret'), bad);
  }
  // pg would look this up in DNS at every connection: a socket directory with its leading slash lost.
  assert.match(
    databaseUrlProblem('postgres://me:s3cret@/mnemo?host=tmp/pgqa')!,
    /^must have a \?host= that is a host name or the Unix socket directory as an absolute path/,
  );
});

test('a database URL is shown without its password, a socket URL with its empty host kept', () => {
  const shown: [string, string][] = [
    [
      'postgresql://postgres:s3cret@/postgres?host=/tmp/pgqa&port=55433',
      'postgresql://postgres:***@/postgres?host=/tmp/pgqa&port=55433',
    ],
    ['postgres://postgres@/postgres?host=/tmp/pgqa', 'postgres://postgres@/postgres?host=/tmp/pgqa'],
    // A user named like the stand-in host stays whole.
    [
      'postgres://mnemo-no-host.invalid:s3cret@/db?host=/tmp',
      'postgres://mnemo-no-host.invalid:***@/db?host=/tmp',
    ],
    ['postgres://me:s3cret@db.example.com:5432/mnemo', 'postgres://me:***@db.example.com:5432/mnemo'],
    ['postgres://me@/mnemo?host=/tmp&password=s3cret', 'postgres://me@/mnemo?host=%2Ftmp&password=***'],
    ['mysql:/me:s3cret', 'the database URL (it is not a URL)'],
  ];
  for (const [url, expected] of shown) assert.equal(shownUrl(url), expected, url);
});

test('a password holding an unencoded "/", "?" or "#" is refused and never shown', () => {
  for (const bad of [
    'postgres://me:2024#s3cret@127.0.0.1:1/db',
    'postgres://me:2024?s3cret@127.0.0.1:1/db',
    'postgres://me:2024/s3cret@127.0.0.1:1/db',
    'postgres://me:2024/s3cret@/db?host=/nonexist',
  ]) {
    assert.match(databaseUrlProblem(bad) ?? '', /password percent-encoded/, bad);
    assert.ok(!shownUrl(bad).includes('s3cret'), shownUrl(bad));
  }
  // Encoded, it is a password like any other.
  assert.equal(databaseUrlProblem('postgres://me:2024%23s3cret@127.0.0.1:1/db'), null);
  assert.ok(!shownUrl('postgres://me:2024%23s3cret@127.0.0.1:1/db').includes('s3cret'));
});
