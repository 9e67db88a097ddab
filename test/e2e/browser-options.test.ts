import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { launchOptions, uncoveredFeatures } from './browser-options.ts';

test('the e2e browser keeps what Playwright disables and runs no omnibox popups', async () => {
  const server = await chromium.launchServer(launchOptions);
  try {
    const pid = server.process().pid;
    assert.ok(pid !== undefined);
    assert.deepEqual(
      uncoveredFeatures(pid),
      [],
      'Playwright disables more than browser-options.ts repeats; Chromium honours only the last --disable-features, ours',
    );
    const browser = await chromium.connect(server.wsEndpoint());
    const context = await browser.newContext();
    await context.newPage();
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{}] })) as {
      targetInfos: { type: string; url: string }[];
    };
    assert.ok(
      targetInfos.some((t) => t.type === 'page'),
      'the page is listed, so an empty list of popups means none',
    );
    assert.deepEqual(
      targetInfos.filter((t) => t.url.startsWith('chrome://omnibox-popup')).map((t) => t.url),
      [],
    );
    await browser.close();
  } finally {
    await server.close();
  }
});
