// The shell's decisions, tested without the Electron binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuseV1Options } from '@electron/fuses';
import { withCsp, uiCsp } from './csp.ts';
import { loadOrCreateDbKey, type SafeStorageLike } from './db-key.ts';
import { createKeyHandoff } from './key-handoff.ts';
import { chooseLaunch } from './launch-mode.ts';
import { externalUrlAllowed, isAppUrl, navigationDecision, openExternalAllowed } from './url-trust.ts';
import { windowOptions } from './window-options.ts';

const origin = 'http://127.0.0.1:43123';

test('the window is isolated, sandboxed and has no Node', () => {
  const o = windowOptions('/app/electron/preload.cjs');
  assert.equal(o.webPreferences?.preload, '/app/electron/preload.cjs');
  assert.equal(o.webPreferences?.contextIsolation, true);
  assert.equal(o.webPreferences?.sandbox, true);
  assert.equal(o.webPreferences?.nodeIntegration, false);
  assert.equal(o.webPreferences?.nodeIntegrationInSubFrames, false);
  assert.equal(o.webPreferences?.webSecurity, true);
  assert.equal(o.webPreferences?.webviewTag, false);
  assert.equal(o.webPreferences?.allowRunningInsecureContent, false);
});

test('only the local server is the app; other ports, hosts and schemes are not', () => {
  assert.equal(isAppUrl(`${origin}/brains/b1/memories`, origin), true);
  assert.equal(isAppUrl('http://127.0.0.1:43124/', origin), false);
  assert.equal(isAppUrl('http://localhost:43123/', origin), false);
  assert.equal(isAppUrl('https://127.0.0.1:43123/', origin), false);
  assert.equal(isAppUrl('http://user:pw@127.0.0.1:43123/', origin), false);
  assert.equal(isAppUrl('file:///etc/passwd', origin), false);
  assert.equal(isAppUrl('not a url', origin), false);
});

test('external links: ordinary web addresses only', () => {
  for (const ok of [
    'https://example.com/docs',
    'http://example.org',
    'https://192.0.2.10/x',
    'https://[2001:db8::1]/',
    'https://local.example.com/',
  ]) {
    assert.equal(externalUrlAllowed(ok), true, ok);
  }
  for (const bad of [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://server/share',
    'ms-settings:',
    'https://user:pw@example.com',
    'http://localhost:8080',
    'http://127.0.0.1:9/',
    'http://[::1]/',
    'http://intranet/',
    'http://localhost.:7821/',
    'http://foo.localhost/',
    'http://[::ffff:127.0.0.1]:7821/',
    'http://169.254.169.254/latest/meta-data',
    'http://192.168.1.1/admin',
    'http://10.0.0.8/',
    'http://[fe80::1]/',
    'http://[fd12::1]/',
    'http://router.local/',
    'http://nas.home.arpa/',
    'http://0x7f.1/',
    'http://[::7f00:1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:c0a8:101::1]/',
    'http://198.18.0.1/',
    'http://printer.intranet/',
    'data:text/html,hi',
    '',
  ]) {
    assert.equal(externalUrlAllowed(bad), false, bad);
  }
  assert.equal(navigationDecision(`${origin}/keys`, origin), 'allow');
  assert.equal(navigationDecision('https://example.com', origin), 'open-external');
  assert.equal(navigationDecision('file:///tmp/x.html', origin), 'deny');
});

test("only the app's own top frame may open an external link", () => {
  const link = 'https://example.com/docs';
  assert.equal(openExternalAllowed({ url: `${origin}/brains`, top: true }, link, origin), true);
  // An iframe, even one of the app's own origin: the top frame is the app the person sees.
  assert.equal(openExternalAllowed({ url: `${origin}/brains`, top: false }, link, origin), false);
  for (const frameUrl of ['https://evil.example/', 'http://127.0.0.1:1/', 'file:///tmp/x.html', ''])
    assert.equal(openExternalAllowed({ url: frameUrl, top: true }, link, origin), false, frameUrl);
  // A frame gone before its message was handled.
  assert.equal(openExternalAllowed(null, link, origin), false);
  // From the app itself, still ordinary web addresses only.
  for (const bad of ['file:///etc/passwd', 'http://127.0.0.1:9/', 42, undefined])
    assert.equal(openExternalAllowed({ url: `${origin}/`, top: true }, bad, origin), false, String(bad));
});

test('the CSP is forced onto the app server responses and nothing else', () => {
  const h = withCsp(`${origin}/`, origin, {
    'content-security-policy': ['default-src *'],
    'Content-Type': ['text/html'],
  });
  assert.deepEqual(h['Content-Security-Policy'], [uiCsp]);
  assert.equal(h['content-security-policy'], undefined);
  assert.deepEqual(h['Content-Type'], ['text/html']);
  const other = withCsp('https://example.com/', origin, { 'X-Test': ['1'] });
  assert.deepEqual(other, { 'X-Test': ['1'] });
  assert.doesNotMatch(uiCsp, /unsafe-(inline|eval)/);
  assert.match(uiCsp, /frame-ancestors 'none'/);
});

test('the UI key is handed only to the app page in the top frame', () => {
  const handoff = createKeyHandoff({ baseUrl: `${origin}/v1`, apiKey: 'sk_live_local_x' }, origin);
  assert.deepEqual(handoff.sessionFor({ url: `${origin}/brains`, top: true }), {
    baseUrl: `${origin}/v1`,
    apiKey: 'sk_live_local_x',
  });
  assert.throws(() => handoff.sessionFor({ url: 'https://evil.example/', top: true }));
  assert.throws(() => handoff.sessionFor(null));
  assert.throws(() => handoff.sessionFor({ url: 'http://127.0.0.1:1/', top: true }));
  // A subframe gets nothing, even one of the app's own origin.
  assert.throws(() => handoff.sessionFor({ url: `${origin}/brains`, top: false }));
});

/** Reversible stand-in for safeStorage; the real one needs Electron and an OS keychain. */
function fakeSafe(opts: { available: boolean; backend?: string }): SafeStorageLike {
  return {
    isEncryptionAvailable: () => opts.available,
    encryptString: (s) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
    decryptString: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
    ...(opts.backend ? { getSelectedStorageBackend: () => opts.backend! } : {}),
  };
}

test('the database key lives encrypted by the keychain and is stable across starts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-dbkey-'));
  try {
    const file = join(dir, 'sub', 'db-key');
    const safe = fakeSafe({ available: true, backend: 'gnome_libsecret' });
    const first = loadOrCreateDbKey(file, safe);
    assert.match(first.key, /^raw:[0-9a-f]{64}$/);
    assert.equal(first.warning, null);
    const stored = readFileSync(file, 'utf8');
    assert.match(stored, /^enc:/);
    assert.ok(!stored.includes(first.key), 'the key is not stored in the clear');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(loadOrCreateDbKey(file, safe).key, first.key);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a plain-text keychain backend gives a visible warning; a later keychain takes the key over', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-dbkey-'));
  try {
    const file = join(dir, 'db-key');
    const basic = loadOrCreateDbKey(file, fakeSafe({ available: true, backend: 'basic_text' }));
    assert.match(basic.warning ?? '', /not protected by a system keychain/);
    const none = join(dir, 'db-key-2');
    const plain = loadOrCreateDbKey(none, fakeSafe({ available: false }), () => 'k'.repeat(64));
    assert.ok(plain.warning);
    assert.equal(readFileSync(none, 'utf8').trim(), `plain:${'k'.repeat(64)}`);
    const moved = loadOrCreateDbKey(none, fakeSafe({ available: true, backend: 'kwallet6' }));
    assert.equal(moved.key, 'k'.repeat(64));
    assert.equal(moved.warning, null);
    assert.match(readFileSync(none, 'utf8'), /^enc:/);
    writeFileSync(none, 'garbage');
    assert.throws(() => loadOrCreateDbKey(none, fakeSafe({ available: true })), /not in a format/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm start picks Electron only with a binary and a display', () => {
  const present = { electron: { path: '/x/electron' }, binaryExists: () => true };
  assert.deepEqual(chooseLaunch({ ...present, platform: 'linux', env: { DISPLAY: ':0' } }), {
    mode: 'electron',
    binary: '/x/electron',
  });
  assert.equal(chooseLaunch({ ...present, platform: 'darwin', env: {} }).mode, 'electron');
  assert.match(JSON.stringify(chooseLaunch({ ...present, platform: 'linux', env: {} })), /no display/);
  assert.match(
    JSON.stringify(
      chooseLaunch({
        electron: { error: 'Electron failed to install correctly' },
        binaryExists: () => true,
        platform: 'linux',
        env: { DISPLAY: ':0' },
      }),
    ),
    /not installed/,
  );
  assert.match(
    JSON.stringify(chooseLaunch({ ...present, binaryExists: () => false, platform: 'win32', env: {} })),
    /missing/,
  );
  assert.equal(
    chooseLaunch({ ...present, platform: 'linux', env: { DISPLAY: ':0', MNEMO_HEADLESS: '1' } }).mode,
    'headless',
  );
});

test('the packaged binary has RunAsNode, NODE_OPTIONS and inspect off and asar integrity on', () => {
  const require = createRequire(import.meta.url);
  const { fuseConfig, binaryPath } = require('./fuses.cjs') as {
    fuseConfig: () => Record<number, unknown>;
    binaryPath: (c: unknown) => string;
  };
  const c = fuseConfig();
  assert.equal(c[FuseV1Options.RunAsNode], false);
  assert.equal(c[FuseV1Options.EnableNodeOptionsEnvironmentVariable], false);
  assert.equal(c[FuseV1Options.EnableNodeCliInspectArguments], false);
  assert.equal(c[FuseV1Options.EnableEmbeddedAsarIntegrityValidation], true);
  assert.equal(c[FuseV1Options.OnlyLoadAppFromAsar], true);
  const ctx = (platform: string) => ({
    appOutDir: '/out',
    electronPlatformName: platform,
    packager: { appInfo: { productFilename: 'Mnemo' }, executableName: 'mnemo' },
  });
  assert.equal(binaryPath(ctx('darwin')), join('/out', 'Mnemo.app'));
  assert.equal(binaryPath(ctx('win32')), join('/out', 'Mnemo.exe'));
  assert.equal(binaryPath(ctx('linux')), join('/out', 'mnemo'));
});

test('the preload exposes exactly the bridge the renderer expects', () => {
  const preload = readFileSync(join(import.meta.dirname, 'preload.cjs'), 'utf8');
  const bridge = readFileSync(join(import.meta.dirname, '..', 'renderer', 'api', 'bridge.ts'), 'utf8');
  for (const name of ['getSession', 'getWarnings', 'openExternal']) {
    assert.match(preload, new RegExp(`${name}:`), `preload exposes ${name}`);
    assert.match(bridge, new RegExp(`${name}\\(`), `bridge.ts declares ${name}`);
  }
  for (const ch of ['mnemo:session', 'mnemo:warnings', 'mnemo:open-external'])
    assert.match(preload, new RegExp(ch));
});

test("a packaged app's server reads the word-vector table from its resources; a checkout's, from the cache or JSON", async () => {
  const { desktopServerOptions, wordTableResource } = await import('./desktop-server.ts');
  const base = { userData: '/u', bundleDir: '/b', dbKey: 'k' };
  assert.equal(
    desktopServerOptions({ ...base, resourcesDir: join('/app', 'resources') }).wordTableDir,
    join('/app', 'resources', wordTableResource),
  );
  assert.equal(desktopServerOptions(base).wordTableDir, undefined);
  const { embedderChoice } = await import('../server/embedder-choice.ts');
  const { resolveEmbedderSpec } = await import('../engine/embed/resolve-embedder.ts');
  const options = desktopServerOptions({ ...base, resourcesDir: '/r' });
  const spec = await resolveEmbedderSpec(embedderChoice(options, '/d')!);
  assert.equal(spec.provider === 'glove-sif' && spec.tableDir, join('/r', wordTableResource));
});

test("the desktop's server takes its own port, or any free one with a warning when another program holds it, where agents find it", async () => {
  // Loaded here: the file's other tests need no server.
  const { createServer } = await import('node:net');
  const { startServer } = await import('../server/start-server.ts');
  const { desktopPort, desktopServerOptions, startDesktopServer } = await import('./desktop-server.ts');
  assert.equal(desktopServerOptions({ userData: '/u', bundleDir: '/b', dbKey: 'k' }).port, desktopPort);
  // Another program on the port the app asks for (not the app's own: tests take free ports only).
  const other = createServer();
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const held = (other.address() as { port: number }).port;
  const userData = mkdtempSync(join(tmpdir(), 'mnemo-desktop-port-'));
  const options = {
    ...desktopServerOptions({ userData, bundleDir: userData, dbKey: 'a'.repeat(64) }),
    port: held,
    ui: false,
    warmUp: false,
  };
  try {
    const { server, warning } = await startDesktopServer(startServer, options);
    try {
      assert.notEqual(new URL(server.url).port, String(held));
      assert.equal(
        warning,
        `Another program is using port ${held}, so Mnemo listens at ${server.url} until it restarts. ` +
          'Agents without MNEMO_URL find it there by themselves; an agent whose MNEMO_URL names ' +
          `port ${held} sends its key to that other program: remove MNEMO_URL from its settings, or quit ` +
          'that program and restart Mnemo.',
      );
      // A client with no MNEMO_URL looks where the app keeps its data dir (Electron's userData is the
      // per-user config folder and the app's name), and finds this server, not the program on its port.
      const { desktopDataDirs } = await import('../server/data-dir.ts');
      const { locateServer } = await import('../server/cli/locate-server.ts');
      const config = join(userData, 'config');
      const appUserData = join(config, 'Mnemo');
      assert.ok(
        desktopDataDirs({ XDG_CONFIG_HOME: config }, 'linux').includes(
          desktopServerOptions({ userData: appUserData, bundleDir: '/b', dbKey: 'k' }).dataDir!,
        ),
      );
      const found = await locateServer({ dirs: [options.dataDir!] });
      assert.equal('url' in found && found.url, server.url);
    } finally {
      await server.close();
    }
    // Any other failure is the start's own, not a reason to move.
    await assert.rejects(
      startDesktopServer(startServer, { ...options, host: '203.0.113.1' }),
      /EADDRNOTAVAIL|cannot listen/,
    );
  } finally {
    other.close();
    rmSync(userData, { recursive: true, force: true });
  }
});
