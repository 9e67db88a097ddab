import { readFileSync } from 'node:fs';

/** Debian's Chromium, the one the e2e tests run in. */
const chromiumPath = '/usr/bin/chromium';

/**
 * Playwright's own `--disable-features` (playwright-core 1.65). Chromium honours only the last
 * `--disable-features` it is given, and ours comes after Playwright's, so ours repeats these
 * (browser-options.test.ts fails when an upgrade of Playwright disables more).
 */
const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Every browser window keeps Chromium's WebUI omnibox popups (chrome://omnibox-popup.top-chrome)
 * loaded in a renderer of their own, which kept it and the browser process busy: about a quarter of
 * what Chromium spent in the e2e files, for a location bar a test never opens.
 */
const ourDisabledFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...playwrightDisabledFeatures, ...ourDisabledFeatures].join(',')}`,
];

/** How every e2e Chromium is launched: the run's shared one, a file's own, and the flags' test. */
export const launchOptions = { executablePath: chromiumPath, headless: true, args: chromiumArgs };

/**
 * The features an earlier `--disable-features` of a browser's command line disabled that its last, the
 * one Chromium honours, leaves on (read from /proc). Empty when ours covers Playwright's.
 */
export function uncoveredFeatures(pid: number): string[] {
  const lists = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((a) => a.startsWith('--disable-features='))
    .map((a) => a.slice('--disable-features='.length).split(','));
  const honoured = new Set(lists.at(-1));
  return lists.slice(0, -1).flatMap((list) => list.filter((f) => f !== '' && !honoured.has(f)));
}

/** Where `npm test` puts the address of its one browser for the e2e files to connect to. */
export const sharedBrowserEnv = 'MNEMO_TEST_BROWSER_WS';
