import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { holderFileName } from '../../../engine/adapters/sqlite/data-dir-lock.ts';
import { testStoreKey } from '../../../engine/adapters/sqlite/testing.ts';
import { registryPathFor } from '../../data-dir.ts';
import { exposureWarning } from './serve.ts';

const env = {
  ...process.env,
  MNEMO_LOG: '',
  MNEMO_EMBEDDER: 'none',
  MNEMO_DB_KEY: testStoreKey,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves once the process holds SIGTERM (bin/mnemo.mjs holds SIGTERM, SIGINT and SIGHUP from its first
 * lines, before the modules load), read from Linux's /proc; elsewhere after a wait most starts fit in.
 * A fixed wait alone fires before Node has even started on a loaded machine. Node itself catches
 * SIGTERM and SIGINT from its start, so the mark is SIGHUP, caught in the same synchronous loop.
 */
async function holdingSignals(pid: number): Promise<void> {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) {
    await sleep(400);
    return;
  }
  for (;;) {
    let caught: bigint;
    try {
      caught = BigInt(`0x${/^SigCgt:\s*([0-9a-f]+)/m.exec(readFileSync(status, 'utf8'))?.[1] ?? '0'}`);
    } catch {
      return; // Exited: the test's own assertions say how.
    }
    if (caught & 1n) return;
    await sleep(2);
  }
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-serve-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function mnemo(args: string[], extraEnv: Record<string, string> = {}, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, 'bin/mnemo.mjs', ...args], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  after(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** The base URL of the listening line, once it is printed. */
    async url(): Promise<string> {
      const deadline = Date.now() + 60_000;
      while (!/listening on/.test(stdout) && child.exitCode === null && Date.now() < deadline)
        await sleep(25);
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      assert.ok(url, `serve did not start: ${stderr}`);
      return url;
    },
  };
}

/** Settles with what `p` gave, or with 'timeout' after `ms` (the timer is cleared: it held the file open). */
const within = <T>(p: Promise<T>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
};

describe('mnemo serve on a data dir another server has open', () => {
  it('refuses to start, naming the dir and the other pid; the first keeps serving; free once it is gone', async () => {
    const dir = tempDir();
    const first = mnemo(['serve', '--port', '0', '--data-dir', dir]);
    const url = await first.url();

    const second = mnemo(['serve', '--port', '0', '--data-dir', dir]);
    const result = await within(second.exited, 60_000);
    assert.deepEqual(result, { code: 1, signal: null }, `the second server: ${second.stdout()}`);
    assert.equal(second.stdout(), '', 'no listening line');
    assert.match(second.stderr(), new RegExp(`data directory ${dir} is in use`));
    assert.match(second.stderr(), new RegExp(`\\(pid ${first.child.pid}\\b`));

    const answer = await fetch(`${url}/brains`, { headers: { Authorization: 'Bearer sk_test_p_abcd1234' } });
    assert.equal(answer.status, 401, 'the first server still answers (an unissued key)');

    // Killed outright: no clean-up runs, and the OS still lets go of its lock.
    first.child.kill('SIGKILL');
    await first.exited;
    const third = mnemo(['serve', '--port', '0', '--data-dir', dir]);
    await third.url();
    third.child.kill('SIGTERM');
    assert.equal((await third.exited).code, 0);
  });
});

describe('mnemo serve --engine reference', () => {
  it('says a --data-dir given to it is not used, and makes none', async () => {
    const dir = join(tempDir(), 'data');
    const serve = mnemo(['serve', '--engine', 'reference', '--port', '0', '--data-dir', dir], {
      MNEMO_LOG: 'info',
    });
    await serve.url();
    serve.child.kill('SIGTERM');
    assert.equal((await serve.exited).code, 0);
    assert.match(
      serve.stderr(),
      /engine reference, deployment local \(--data-dir is not used by this engine/,
    );
    assert.equal(existsSync(dir), false);
  });
});

describe('mnemo serve start-up failures exit promptly: 1 for a start that failed, 2 for a usage error', () => {
  it('a port in use: exit 1, with the default embedder configured', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    after(() => blocker.close());
    const { port } = blocker.address() as { port: number };
    // The default embedder, whose worker thread would keep the process alive had it been started.
    const serve = mnemo(['serve', '--port', String(port), '--data-dir', join(tempDir(), 'data')], {
      MNEMO_EMBEDDER: '',
    });
    const result = await within(serve.exited, 45_000);
    assert.notEqual(result, 'timeout', `still running 45 s later: ${serve.stderr()}`);
    assert.deepEqual(result, { code: 1, signal: null });
    assert.match(serve.stderr(), /EADDRINUSE/);
  });

  it('a --host no address is known by: one clear error line naming it', async () => {
    const registry = join(tempDir(), 'keys.json');
    const serve = mnemo([
      'serve',
      '--engine',
      'reference',
      '--key-registry',
      registry,
      '--port',
      '0',
      '--host',
      'no-such-host.invalid',
    ]);
    assert.deepEqual(await within(serve.exited, 45_000), { code: 1, signal: null });
    assert.match(
      serve.stderr(),
      /^mnemo: cannot listen on no-such-host\.invalid:0: no address is known by the name no-such-host\.invalid \((?:ENOTFOUND|EAI_AGAIN)\)/m,
    );
  });

  it('a port in use: one clear error line, and nothing made in the data dir', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    after(() => blocker.close());
    const { port } = blocker.address() as { port: number };
    const dir = join(tempDir(), 'data');
    const serve = mnemo(['serve', '--port', String(port), '--data-dir', dir]);
    assert.deepEqual(await within(serve.exited, 45_000), { code: 1, signal: null });
    assert.deepEqual(serve.stderr().trimEnd().split('\n'), [
      `mnemo: cannot listen on 127.0.0.1:${port}: another program is using port ${port} there (EADDRINUSE): ` +
        'stop it, or choose another --port (--port 0 takes any free one)',
    ]);
    // The port is taken before the data dir is touched: no store, registry or key to clean up.
    assert.equal(existsSync(dir), false);
  });

  // Each is a process of its own that exits at once: they run side by side.
  describe('usage errors', { concurrency: true }, () => {
    /**
     * Runs `mnemo serve ...args` to its end, which must be exit 2 (a usage error), not a start; exit 1
     * where the call was right and the start failed.
     */
    const refused = async (args: string[], extraEnv: Record<string, string> = {}, code = 2) => {
      const serve = mnemo(['serve', ...args], extraEnv);
      const result = await within(serve.exited, 60_000);
      assert.deepEqual(result, { code, signal: null }, `it started: ${serve.stdout()}${serve.stderr()}`);
      return serve;
    };
    for (const port of ['65536', '70000']) {
      it(`--port ${port}: a usage error, and nothing is created`, async () => {
        const dir = join(tempDir(), 'data');
        const serve = await refused(['--port', port, '--data-dir', dir]);
        assert.match(serve.stderr(), /must be a port number from 0 to 65535/);
        assert.equal(existsSync(dir), false);
      });
    }

    for (const bad of ['not a url', 'ftp://mnemo.example/v1', 'https://user@mnemo.example/v1']) {
      it(`--public-url ${JSON.stringify(bad)}: a usage error`, async () => {
        const serve = await refused(['--engine', 'reference', '--port', '0', '--public-url', bad]);
        assert.match(
          serve.stderr(),
          /--public-url.*must (be an absolute http:\/\/ or https:\/\/ URL|have no user)/,
        );
        assert.equal(serve.stdout(), '');
      });
    }

    it('MNEMO_PUBLIC_URL holding a URL that is not one: a usage error naming the variable', async () => {
      const serve = await refused(['--engine', 'reference', '--port', '0'], {
        MNEMO_PUBLIC_URL: 'https://mnemo.example/v1, mnemo.example',
      });
      assert.match(serve.stderr(), /MNEMO_PUBLIC_URL: public URL "mnemo.example": must be an absolute/);
    });

    const postgresUsage: [string, string[], Record<string, string>, RegExp][] = [
      ['--engine postgres without a database', [], {}, /--engine postgres needs --database-url URL/],
      [
        '--database-url that is not a postgres:// URL',
        ['--database-url', 'http://db.example/mnemo'],
        {},
        /--database-url.*must be a postgres:\/\/user:password@host:port\/database URL/,
      ],
      [
        'MNEMO_DATABASE_URL that is not a postgres:// URL',
        [],
        { MNEMO_DATABASE_URL: 'db.example' },
        /MNEMO_DATABASE_URL: must be a postgres:\/\//,
      ],
      [
        'MNEMO_DATABASE_URL with a socket directory that is not an absolute path',
        [],
        { MNEMO_DATABASE_URL: 'postgres://me@/db?host=tmp/pgqa' },
        /MNEMO_DATABASE_URL: must have a \?host= that is a host name or the Unix socket directory/,
      ],
    ];
    for (const [what, args, extraEnv, said] of postgresUsage) {
      it(`${what}: a usage error`, async () => {
        const serve = await refused(['--engine', 'postgres', '--port', '0', ...args], extraEnv);
        assert.match(serve.stderr(), said);
        assert.equal(serve.stdout(), '');
      });
    }

    it('--engine reference beyond loopback, or behind a public URL, with no key registry: a usage error', async () => {
      const serve = await refused(['--engine', 'reference', '--port', '0', '--host', '0.0.0.0']);
      assert.match(
        serve.stderr(),
        /--engine reference without --key-registry accepts any well-formed key.*--key-registry PATH to bind 0\.0\.0\.0/,
      );
      assert.equal(serve.stdout(), '');
      const proxied = await refused(['--engine', 'reference', '--port', '0'], {
        MNEMO_PUBLIC_URL: 'https://mnemo.example.com/v1',
      });
      assert.match(proxied.stderr(), /--key-registry PATH to serve a public URL/);
    });

    it('--database-url with another engine: a usage error', async () => {
      const serve = await refused([
        '--engine',
        'reference',
        '--port',
        '0',
        '--database-url',
        'postgres://h/db',
      ]);
      assert.match(serve.stderr(), /--database-url is for --engine postgres/);
    });

    for (const both of [
      ['--ui', '--no-ui'],
      ['--no-ui', '--ui'],
    ]) {
      it(`${both.join(' ')}: a usage error, and nothing is created`, async () => {
        const dir = join(tempDir(), 'data');
        const serve = await refused(['--port', '0', '--data-dir', dir, ...both]);
        assert.match(serve.stderr(), /'--ui' cannot be used with option '--no-ui'/);
        assert.equal(existsSync(dir), false);
      });
    }

    it('--key-registry with --engine postgres: a usage error before the database is tried', async () => {
      const serve = await refused([
        '--engine',
        'postgres',
        '--port',
        '0',
        '--database-url',
        'postgres://me@127.0.0.1:1/db',
        '--key-registry',
        '/tmp/keys.json',
      ]);
      assert.match(
        serve.stderr(),
        /--key-registry is not used with --engine postgres: its keys live in the database/,
      );
      assert.doesNotMatch(serve.stderr(), /could not be used/, 'refused before the database was tried');
    });

    it('a database that cannot be reached at start is said once, as the start failing', async () => {
      const serve = await refused(
        ['--engine', 'postgres', '--port', '0', '--database-url', 'postgres://me@127.0.0.1:1/db'],
        {},
        1,
      );
      const said = serve
        .stderr()
        .match(/^mnemo: the database at postgres:\/\/me@127\.0\.0\.1:1\/db could not be used: /gm);
      assert.equal(said?.length, 1, serve.stderr());
      assert.doesNotMatch(serve.stderr(), /derivation waits/, 'no outage of a server that never started');
    });

    it('a Unix socket with no server behind it is taken as a URL, and said once as the start failing', async () => {
      const dir = tempDir();
      const serve = await refused(
        ['--engine', 'postgres', '--port', '0'],
        { MNEMO_DATABASE_URL: `postgres://me:s3cret@/db?host=${dir}` },
        1,
      );
      const said = serve
        .stderr()
        .split('\n')
        .filter((l) => l.includes('could not be used'));
      assert.deepEqual(said, [
        `mnemo: the database at postgres://me:***@/db?host=${dir} could not be used: ` +
          `connect ENOENT ${dir}/.s.PGSQL.5432`,
      ]);
      assert.ok(!serve.stderr().includes('s3cret'), serve.stderr());
    });

    for (const base of ['not a url', 'ftp://docs.example/mnemo', '/docs']) {
      it(`--docs-url-base ${JSON.stringify(base)}: a usage error`, async () => {
        const serve = await refused(['--engine', 'reference', '--port', '0', '--docs-url-base', base]);
        assert.match(serve.stderr(), /--docs-url-base.*must be an absolute http:\/\/ or https:\/\/ URL/);
        assert.equal(serve.stdout(), '');
      });
    }
  });
});

describe('SIGTERM during start-up', () => {
  it('while the modules load: start-up finishes, the store closes, exit 0, no listening line', async () => {
    const dir = tempDir();
    // Through tsx, as a checkout runs it: the bundle npm test may name loads in less than this wait.
    const serve = mnemo(['serve', '--port', '0', '--data-dir', dir], { MNEMO_TEST_CLI_BUNDLE: '' });
    // The second or more the modules take to load begins as the signals are held.
    await holdingSignals(serve.child.pid!);
    serve.child.kill('SIGTERM');
    assert.deepEqual(await within(serve.exited, 60_000), { code: 0, signal: null }, serve.stderr());
    assert.equal(serve.stdout(), '');
    assert.match(serve.stderr(), /SIGTERM: stopping as soon as start-up is done/);
  });

  it('while the engine opens: exit 0 after closing it', async () => {
    const dir = tempDir();
    // Through tsx: bundled, the local engine is loaded already and the window is a few milliseconds.
    const serve = mnemo(['serve', '--port', '0', '--data-dir', dir], { MNEMO_TEST_CLI_BUNDLE: '' });
    // The key registry is made just before the local engine is loaded (half a second) and opened.
    while (!existsSync(registryPathFor(dir)) && serve.child.exitCode === null) await sleep(2);
    serve.child.kill('SIGINT');
    assert.deepEqual(await within(serve.exited, 60_000), { code: 0, signal: null }, serve.stderr());
    assert.match(serve.stderr(), /SIGINT: stopping as soon as start-up is done/);
    assert.match(serve.stderr(), /start-up done: closing the store/);
  });

  it('a second SIGINT while start-up is stuck exits at once (130), having made nothing', async () => {
    const dir = tempDir();
    // Start-up stalls at listen(), its first step: nothing is made in the data dir before it.
    const serve = mnemo(['serve', '--port', '0', '--data-dir', dir], { MNEMO_TEST_SLOW_LISTEN_MS: '30000' }, [
      '--import',
      './test/support/slow-listen.mjs',
    ]);
    while (!/listen delayed/.test(serve.stderr()) && serve.child.exitCode === null) await sleep(5);
    serve.child.kill('SIGINT');
    // Past the window in which a repeat is the same Ctrl-C forwarded twice, which opens when the first
    // is handled: on a loaded machine that can be a while after it was sent.
    while (
      !/SIGINT: stopping as soon as start-up is done/.test(serve.stderr()) &&
      serve.child.exitCode === null
    )
      await sleep(5);
    await sleep(1_200);
    assert.equal(serve.child.exitCode, null, 'the first SIGINT waits for start-up');
    serve.child.kill('SIGINT');
    // At once, against the 30 s the stalled start-up would take: a loaded machine may take seconds to exit.
    assert.deepEqual(await within(serve.exited, 10_000), { code: 130, signal: null }, serve.stderr());
    assert.match(serve.stderr(), /SIGINT again: exiting now, before start-up finished \(exit code 130\)/);
    assert.equal(serve.stdout(), '');
    assert.deepEqual(readdirSync(dir), [], 'no store, registry or key was made');
  });

  it('SIGHUP (its terminal closed) stops a running server as cleanly as SIGTERM: exit 0, store closed', async () => {
    const dir = tempDir();
    const serve = mnemo(['serve', '--port', '0', '--data-dir', dir]);
    await serve.url();
    serve.child.kill('SIGHUP');
    assert.deepEqual(await within(serve.exited, 30_000), { code: 0, signal: null }, serve.stderr());
    assert.match(serve.stderr(), /SIGHUP: finishing in-flight requests/);
    // Closed, not killed: the WAL was checkpointed away and the holder file removed.
    assert.equal(existsSync(join(dir, 'mnemo.db-wal')), false, 'no WAL left');
    assert.equal(existsSync(join(dir, holderFileName)), false, 'no holder file left');
  });

  it('other commands still end on a signal held while the modules loaded', async () => {
    const keys = mnemo(['keys', 'list', '--key-registry', join(tempDir(), 'keys.json')], {
      MNEMO_TEST_CLI_BUNDLE: '',
    });
    await holdingSignals(keys.child.pid!);
    keys.child.kill('SIGTERM');
    assert.deepEqual(await keys.exited, { code: null, signal: 'SIGTERM' });
  });
});

describe('mnemo serve help and warnings', () => {
  it('--help says what --thorough-sync-ms 0 means', async () => {
    const help = mnemo(['serve', '--help']);
    assert.equal((await help.exited).code, 0);
    assert.match(help.stdout().replace(/\s+/g, ' '), /0 = no limit, it always answers 200 when done/);
  });

  it('--rewrite-url and --rewrite-model go together, and the key is no flag', async () => {
    const help = mnemo(['serve', '--help']);
    assert.equal((await help.exited).code, 0);
    assert.match(help.stdout().replace(/\s+/g, ' '), /--rewrite-url <url> .* key from MNEMO_REWRITE_KEY/);
    assert.doesNotMatch(help.stdout(), /--rewrite-key/);
    for (const half of [
      ['--rewrite-url', 'http://127.0.0.1:9/v1'],
      ['--rewrite-model', 'llama3.2'],
    ]) {
      const serve = mnemo(['serve', '--port', '0', '--data-dir', tempDir(), ...half]);
      assert.equal((await serve.exited).code, 2, half.join(' '));
      assert.match(serve.stderr(), /--rewrite-url and --rewrite-model go together/);
    }
  });

  it('--rewrite-url beyond this machine must be https: refused as a usage error, nothing started', async () => {
    for (const url of ['http://llm.example.org/v1', 'http://10.0.0.7:11434/v1', 'ftp://127.0.0.1/v1']) {
      const dir = tempDir();
      const serve = mnemo([
        'serve',
        '--port',
        '0',
        '--data-dir',
        dir,
        '--rewrite-url',
        url,
        '--rewrite-model',
        'm',
      ]);
      assert.equal((await serve.exited).code, 2, url);
      assert.match(serve.stderr(), /error: option '--rewrite-url <url>' argument '.*' is invalid/, url);
      assert.equal(serve.stdout(), '', 'never listened');
    }
    const plain = mnemo([
      'serve',
      '--port',
      '0',
      '--data-dir',
      tempDir(),
      '--rewrite-url',
      'http://llm.example.org/v1',
      '--rewrite-model',
      'm',
    ]);
    await plain.exited;
    assert.match(plain.stderr(), /must be https: plain http is for a loopback host only/);
  });

  it('warns when bound beyond loopback, and only then', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'mnemo.lan'])
      assert.match(exposureWarning(host) ?? '', /reachable from other machines/, host);
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2'])
      assert.equal(exposureWarning(host), null);
  });
});

describe('serve --public-url', () => {
  const hostOf = async (url: string, host: string) => {
    const { request } = await import('node:http');
    const u = new URL(`${url}/brains`);
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  };

  it('MNEMO_PUBLIC_URL (comma-separated): each host is this server, docs_url is under the first', async () => {
    const registry = join(tempDir(), 'keys.json');
    const serve = mnemo(['serve', '--engine', 'reference', '--key-registry', registry, '--port', '0'], {
      MNEMO_PUBLIC_URL: 'https://mnemo.example.com/v1, https://alt.example:8443/v1',
    });
    const url = await serve.url();
    for (const host of ['mnemo.example.com', 'alt.example:8443']) {
      const reached = await hostOf(url, host);
      assert.equal(reached.status, 401, `${host}: ${reached.body}`);
      assert.equal(
        JSON.parse(reached.body).docs_url,
        'https://mnemo.example.com/docs/errors/invalid_api_key',
      );
    }
    assert.equal((await hostOf(url, 'evil.example')).status, 403);
    // The contract names where clients reach the server: the public URLs first, then its own address.
    const contract = (await (await fetch(`${url}/openapi.json`)).json()) as { servers: { url: string }[] };
    assert.deepEqual(
      contract.servers.map((s) => s.url),
      ['https://mnemo.example.com/v1', 'https://alt.example:8443/v1', url],
    );
    serve.child.kill('SIGTERM');
    await within(serve.exited, 60_000);
  });
});

describe('mnemo serve flags of the CLI spec', () => {
  it('--deployment hosted, --rate-limit, --trace-buffer and --docs-url-base take effect; one stdout line; SIGTERM exits 0', async () => {
    const serve = mnemo([
      'serve',
      '--engine',
      'reference',
      '--port',
      '0',
      '--deployment',
      'hosted',
      '--rate-limit',
      '4',
      '--trace-buffer',
      '1',
      '--docs-url-base',
      'https://docs.example.com/mnemo',
    ]);
    const url = await serve.url();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    // The fixed window is the clock's minute: requests counted across its end fall in two windows.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await sleep(left + 50);
    // No registry: any well-formed key is accepted (the spec's Authentication 5). One key per limit.
    const call = async (key: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const a = 'sk_test_cli_first';
    assert.equal((await call(a, 'POST', '/brains', { id: 'b' })).status, 201);
    const refused = await call(a, 'POST', '/brains/b/records', { content: 'x', visibility: 'local_only' });
    assert.deepEqual(
      [refused.status, refused.body.code, refused.body.docs_url],
      [403, 'local_only_record', 'https://docs.example.com/mnemo/errors/local_only_record'],
    );
    const first = await call(a, 'POST', '/brains/b/context', { query: 'one' });
    const second = await call(a, 'POST', '/brains/b/context', { query: 'two' });
    assert.equal(second.status, 200);
    const over = await call(a, 'GET', '/brains');
    assert.deepEqual([over.status, over.body.code], [429, 'too_many_requests'], 'the fifth request');
    // Another key of the same project counts on its own; the buffer of one holds only the newest Trace.
    const b = 'sk_test_cli_second';
    const evicted = await call(b, 'GET', `/brains/b/traces/${String(first.body.id)}`);
    assert.deepEqual([evicted.status, evicted.body.code], [404, 'trace_not_found']);
    assert.equal((await call(b, 'GET', `/brains/b/traces/${String(second.body.id)}`)).status, 200);
    serve.child.kill('SIGTERM');
    const exit = await within(serve.exited, 60_000);
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.equal(serve.stdout(), `listening on ${url}\n`, 'stdout holds the listening line alone');
  });
});
