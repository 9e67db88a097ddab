/**
 * End-to-end harness: Debian's Chromium driven by playwright-core against the real headless server
 * (`startServer`, the function `mnemo serve --ui` runs), each test on its own temp data dir.
 * One browser context per test file (in `npm test`'s one Chromium, else in a Chromium of the file's
 * own); a fresh page per test.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import axe from 'axe-core';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { launchOptions, sharedBrowserEnv } from './browser-options.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';

const repoRoot = join(import.meta.dirname, '..', '..');
export const resultsDir = join(repoRoot, 'test-results');

const viewport = { width: 1280, height: 900 };

/** What a test file may set on its browser context (a time zone west of UTC, say). */
export interface ContextOptions {
  timezoneId?: string;
  /**
   * The pages' timers and Date run on Playwright's clock: in real time, until a test moves it on
   * (`advanceUntil`) past the UI's polls and retries instead of waiting them out.
   */
  fakeClock?: boolean;
}

async function launchBrowser(
  options: ContextOptions,
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const { fakeClock, ...o } = options;
  // `npm test` builds the UI first; run alone, the e2e files build it if it is missing or stale.
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-ui.mjs')], { stdio: 'ignore' });
  assert.equal(built.status, 0, 'scripts/build-ui.mjs failed');
  // `npm test` runs one Chromium for every file (scripts/test-browser.ts): a context of its own here.
  const shared = process.env[sharedBrowserEnv];
  if (shared) {
    const browser = await chromium.connect(shared);
    const context = await browser.newContext({ viewport, ...o });
    if (fakeClock) await context.clock.install();
    return {
      context,
      close: async () => {
        await context.close();
        await browser.close();
      },
    };
  }
  const profile = mkdtempSync(join(tmpdir(), 'mnemo-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions, viewport, ...o });
  if (fakeClock) await context.clock.install();
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * One browser for the calling test file: launched in `before`, closed in `after`. Returns the
 * context getter to pass to `openUi` (valid once `before` has run).
 */
export function browserPerFile(o: ContextOptions = {}): () => BrowserContext {
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  before(async () => {
    browser = await launchBrowser(o);
    browser.context.setDefaultTimeout(10_000);
  });
  after(async () => browser?.close());
  return () => {
    assert.ok(browser, 'the browser is launched in before()');
    return browser.context;
  };
}

export interface RunningApp {
  server: RunningServer;
  /** A key of the same project as the UI's, for writing Records "through the API". */
  api: MnemoClient;
  uiUrl: string;
  /**
   * The pages `openUi` signed in to this server. close() closes them first: a page left open polls
   * its server every few seconds to the end of the file, a server long gone included.
   */
  pages: Set<Page>;
  close(): Promise<void>;
}

export async function startApp(
  engine: 'reference' | 'local',
  extra: Pick<
    Parameters<typeof startServer>[0],
    'thoroughSyncMs' | 'sync' | 'deriver' | 'deriveRetryDelaysMs'
  > = {},
): Promise<RunningApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `mnemo-e2e-${engine}-`));
  const keyRegistry = join(dataDir, 'keys.json');
  FileKeyRegistry.ensure(keyRegistry);
  const server = await startServer({
    engine,
    port: 0,
    ui: true,
    dataDir,
    keyRegistry,
    configDir: join(dataDir, 'config'),
    ...extra,
  });
  assert.ok(server.uiUrl, 'the server prints a UI address');
  // The UI's key is project `local`, live; an API key of the same namespace sees the same Brains.
  assert.ok(server.registry);
  const apiKey = (await server.registry.create({ env: 'live', project: 'local', label: 'e2e' })).key;
  const pages = new Set<Page>();
  return {
    server,
    api: createMnemoClient({ baseUrl: server.url, apiKey, retry: false }),
    uiUrl: server.uiUrl,
    pages,
    close: async () => {
      await Promise.all([...pages].map((page) => page.close()));
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One server and one signed-in page for a test file, each test on its own Brain. The server starts in
 * `before` (then `seed` runs, if given) and closes in `after`. The UI's sign-in address works once, so
 * `ui()` signs in the first time and hands every later test the same page, its problems cleared;
 * `signOut()` makes the next `ui()` sign in again (after a test closed the page).
 */
export function appPerFile(
  context: () => BrowserContext,
  engine: 'reference' | 'local',
  o: {
    thoroughSyncMs?: number;
    viewport?: { width: number; height: number };
    seed?: (app: RunningApp) => Promise<void>;
  } = {},
): { app: () => RunningApp; ui: () => Promise<{ page: Page; problems: string[] }>; signOut: () => void } {
  let app: RunningApp | undefined;
  let opened: { page: Page; problems: string[] } | undefined;
  before(async () => {
    app = await startApp(engine, o.thoroughSyncMs === undefined ? {} : { thoroughSyncMs: o.thoroughSyncMs });
    await o.seed?.(app);
  });
  after(async () => app?.close());
  const running = () => {
    assert.ok(app, 'the server is started in before()');
    return app;
  };
  return {
    app: running,
    async ui() {
      opened ??= await openUi(context(), running());
      opened.problems.length = 0;
      if (o.viewport) await opened.page.setViewportSize(o.viewport);
      return opened;
    },
    signOut: () => (opened = undefined),
  };
}

/** Opens the UI through its one-time address and waits for the app to be signed in. */
export async function openUi(
  context: BrowserContext,
  app: RunningApp,
): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  app.pages.add(page);
  page.once('close', () => app.pages.delete(page));
  const problems: string[] = [];
  // A CSP violation or an uncaught error is a failure even when the screen looks right.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(app.uiUrl);
  await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  assert.doesNotMatch(page.url(), /ui_token/, 'the one-time token is removed from the address bar');
  return { page, problems };
}

/**
 * axe-core's WCAG 2.x A/AA check of the page (of `include` only, when given), through AxeBuilder.
 * Every rule of those tags runs on every node, and `violations` lists each failing node in full;
 * `passes`, `incomplete` and `inapplicable` name one node per rule at most (axe's `resultTypes`). Those
 * nodes' selectors, HTML and checks were most of the run's time in the page (a 60-row table: 1 CPU s
 * of Chromium's a call, 0.4 with `resultTypes`), for lists no test reads.
 *
 * The UI has no frames, so it runs in AxeBuilder's legacy mode: `axe.run` in the page, the check the
 * default mode makes too (which splits it into `runPartial` here and `finishRun` in a new blank page,
 * and puts axe's 650 kB source into both, on every call). axe goes into a document once and stays
 * there across the UI's in-page navigation, so a screen after the first costs only the run itself: a
 * quarter to a third of the default mode's time, for the same results, rule for rule and node for
 * node. A page with frames gets the default mode, which also checks frames of other origins.
 */
export async function axeCheck(page: Page, include?: string): ReturnType<AxeBuilder['analyze']> {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
  // Before withTags: options() replaces what withTags set.
  const options = { resultTypes: ['violations' as const] };
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).options(options).withTags(tags);
    return (include ? builder.include(include) : builder).analyze();
  }
  // Put into the document here, once: given the source, AxeBuilder evaluates all of it twice per call
  // (in analyze() and again in its injection). Its injection is given a no-op instead (a document that
  // went away since makes analyze() fail: `window.axe` is undefined, never a pass); it still
  // configures axe as it would have.
  const loaded = await page.evaluate<boolean>('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(axe.source);
  const builder = new AxeBuilder({ page, axeSource: ';' })
    .options(options)
    .withTags(tags)
    .setLegacyMode(true);
  return (include ? builder.include(include) : builder).analyze();
}

/** Set to 1, `checkScreen` also saves each screen it checks as test-results/<name>.jpg. */
export const screenshotsEnv = 'MNEMO_E2E_SCREENSHOTS';

/**
 * Fails on serious or critical axe-core violations of WCAG 2.x A/AA; with `MNEMO_E2E_SCREENSHOTS=1`,
 * first saves a full-page screenshot to test-results/<name>.jpg for a person to look at. No test reads
 * them, and a full-page one cost ~0.6 CPU s of Chromium's (the page laid out and drawn at its whole
 * height, then again at the window's), more than the axe check beside it: ~50 CPU s over the suite's
 * 80 screens.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  if (process.env[screenshotsEnv] === '1') {
    mkdirSync(resultsDir, { recursive: true });
    // JPEG: a PNG of a whole page took ~0.37 CPU s of Chromium's to encode, ~30 s over the suite's 82;
    // a JPEG is as good for a person to look at, for about the cost of none.
    await page.screenshot({
      path: join(resultsDir, `${name}.jpg`),
      fullPage: true,
      type: 'jpeg',
      quality: 80,
    });
  }
  const results = await axeCheck(page);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `accessibility violations on ${name}`,
  );
}

/** Navigates in place, as a click on a link does (a reload would start a new session). */
export async function navigateInPlace(page: Page, path: string): Promise<void> {
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)});
    dispatchEvent(new Event('mnemo:navigate'));`);
}

/**
 * Writes `count` facts of the Brain's person (`trait_<i>`: `value <i>`, an hour apart from 2024-01-01),
 * `batch` at a time; returns their Records' ids in that order.
 */
export async function rememberTraits(
  app: RunningApp,
  brainId: string,
  count: number,
  batch: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += batch) {
    const written = await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, (_, j) =>
        app.api.rememberRecord(brainId, {
          content: { kind: 'fact', subject: 'user', predicate: `trait_${i + j}`, value: `value ${i + j}` },
          occurred_at: new Date(Date.UTC(2024, 0, 1) + (i + j) * 3_600_000).toISOString(),
        }),
      ),
    );
    ids.push(...written.map((r) => r.record.id));
  }
  return ids;
}

/**
 * Waits for derivation to finish. The deadline only ends a wait that would never end: CI runs two files
 * at once on two cores, and 2,000 Records may take a while there (speed is the benchmarks' to hold).
 */
export async function derivationSettled(app: RunningApp, brainId: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while ((await app.api.getCensus(brainId)).counts.records_processing > 0) {
    assert.ok(Date.now() < deadline, `${brainId}: Records still processing`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * How the tests of what the rules make of a person's words set up and read their Brains, on the file's
 * server (`app`, from appPerFile).
 */
export function selfBrains(app: () => RunningApp) {
  return {
    /** A Brain whose self is "Ana", holding `lines` as her chat messages ([text, occurred_at]), derived. */
    async chat(brainId: string, lines: readonly (readonly [string, string])[]): Promise<void> {
      const api = app().api;
      await api.createBrain({ id: brainId, name: brainId, self: { type: 'person', name: 'Ana' } });
      for (const [text, at] of lines)
        await api.rememberRecord(brainId, {
          content: { kind: 'message', text, speaker: 'self' },
          occurred_at: at,
        });
      await derivationSettled(app(), brainId);
    },
    /** The Brain's Memory (of any status) stating `statement`; fails naming the statements there are. */
    async memoryOf(brainId: string, statement: string) {
      const all = (await app().api.listMemories(brainId, { status: 'all' })).data;
      const m = all.find((x) => x.statement === statement);
      assert.ok(m, `the engine's versions: ${all.map((x) => x.statement).join(' | ')}`);
      return m;
    },
  };
}

/**
 * Moves the clock of a page of a `fakeClock` context on, `stepMs` at a time, until `done` holds: a poll
 * or retry due within the step runs at once, and its answer, which comes in real time (as does the
 * server's own work, a derivation, say), is let in between steps. Fails after `timeoutMs` of real time.
 */
export async function advanceUntil(
  page: Page,
  done: () => Promise<boolean>,
  { stepMs = 1000, timeoutMs = 20_000 }: { stepMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    assert.ok(Date.now() < deadline, `not done after ${timeoutMs} ms`);
    await page.clock.fastForward(stepMs);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until a page expression is true, evaluated from here every 50 ms: waitForFunction's string
 * form is evaluated in the page, which the UI's CSP (no unsafe-eval) refuses once it has to poll.
 */
export async function pageUntil(page: Page, expression: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The focused element: its tag and the start of its text (80 characters). */
export const focusedElement = (page: Page): Promise<string> =>
  page.evaluate<string>(`(() => {
    const a = document.activeElement;
    return a ? a.tagName + ' ' + (a.textContent ?? '').trim().slice(0, 80) : '';
  })()`);
