// Checked in the real UI, from a week of use (round 6, U14): the addresses, notices, names and first
// steps that read as slips. One server and one browser for the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appPerFile, browserPerFile, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { ui } = appPerFile(context, 'local');

test('/brains, the parent of every Brain’s address, opens the Brains list at its own address', async () => {
  const { page, problems } = await ui();
  for (const path of ['/brains', '/brains/']) {
    await navigateInPlace(page, '/keys');
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await navigateInPlace(page, path);
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    assert.equal(await page.getByText('Page not found').count(), 0);
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Brains' })
        .getAttribute('aria-current'),
      'page',
    );
  }
  assert.deepEqual(problems, []);
});
