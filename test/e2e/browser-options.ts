/** Debian's Chromium, as every e2e browser runs it (also the run's shared one, scripts/test-browser.ts). */
export const chromiumPath = '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where `npm test` puts the address of its one browser for the e2e files to connect to. */
export const sharedBrowserEnv = 'MNEMO_TEST_BROWSER_WS';
