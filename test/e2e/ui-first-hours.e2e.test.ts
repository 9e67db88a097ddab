// Checked in the real UI, from a QA pass over a new user's first hours: an invalid Brain id is refused in
// the form's words.
// One browser for the file; one server for the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appPerFile, browserPerFile, checkScreen, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local', { viewport: { width: 1280, height: 900 } });

test('a Brain id with a space is refused in the form’s words; an underscore is taken', async () => {
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  const id = page.getByLabel(/^Short id/);
  await id.waitFor();
  assert.match(await page.locator('label', { has: id }).innerText(), /underscores/);
  await id.fill('Work Notes');
  await page.getByRole('button', { name: 'Create Brain' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Work Notes' });
  await refused.waitFor();
  assert.match(await refused.innerText(), /no spaces/);
  assert.match(await refused.innerText(), /Work-Notes/);
  assert.equal(await id.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate<string>('document.activeElement?.getAttribute("name") ?? ""'), 'id');
  await checkScreen(page, 'brain-id-refused');
  await id.fill('work_notes');
  await refused.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Create Brain' }).click();
  await page.waitForURL(/\/brains\/work_notes/);
  assert.equal((await app().api.getBrain('work_notes')).id, 'work_notes');
  assert.deepEqual(problems, []);
});
