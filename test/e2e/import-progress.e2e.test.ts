// The Import screen's progress and Cancel against `mnemo serve --ui` with the local engine: a
// multi-file import shows a bar, counts and the file being read; Cancel stops it, says what happened,
// and importing the same files again finishes the rest without duplicates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { axeCheck, browserPerFile, openUi, resultsDir, screenshotsEnv, startApp } from './harness.ts';

const context = browserPerFile();

// Many small notes: each is a file of its own and one write, so the import lasts seconds, long
// enough to watch and stop (each note costs the local engine a few milliseconds, writes sharing commits).
// In-memory files: picked by path, each file is streamed on its own to the shared browser's Playwright
// server (scripts/test-browser.ts), which made picking 500 files cost more CPU than importing them.
const total = 500;
const notes = Array.from({ length: total }, (_, i) => ({
  name: `note-${String(i).padStart(4, '0')}.md`,
  mimeType: 'text/markdown',
  buffer: Buffer.from(`# Note ${i}\n\nThe heron came back to pond ${i}.\n`),
}));

// How long the rest of an import may take: seconds on a quiet machine, far more on a loaded one; a
// wait, not a measure (bench import measures the speed).
const importMs = 90_000;

/** The bar's value reached n (runs in the page; the test project has Node's types, not the DOM's). */
const barValueAtLeast = (n: number) => {
  const { document } = globalThis as unknown as {
    document: { querySelector(selector: string): { value: number } | null };
  };
  return (document.querySelector('progress[aria-label="Import progress"]')?.value ?? 0) >= n;
};

test('a multi-file import shows progress; Cancel stops it and says so; importing again finishes it', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'me', name: 'Me' });
    const records = async () => (await app.api.getCensus('me')).counts.records;
    const { page, problems } = await openUi(context(), app);
    await page.getByRole('link', { name: 'Me' }).click();
    const nav = page.getByRole('navigation', { name: 'Brain me' });
    await nav.getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();

    await page.getByLabel('Files', { exact: true }).setInputFiles(notes);
    await page.getByText(`${total} files chosen`).waitFor();
    await page.getByRole('button', { name: `Import ${total} files` }).click();

    // Progress: a labelled bar that moves, the counts, and the file being read.
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await bar.waitFor();
    await page.waitForFunction(barValueAtLeast, 3);
    assert.equal(await bar.getAttribute('max'), String(total));
    await page
      .getByText(new RegExp(`^\\d+ of ${total} files read: \\d+ new items?, 0 already here$`))
      .waitFor();
    await page.getByText(/^Now: note-\d{4}\.md$/).waitFor();
    if (process.env[screenshotsEnv] === '1') {
      mkdirSync(resultsDir, { recursive: true });
      await page.screenshot({ path: join(resultsDir, 'import-progress.png') });
    }
    // WCAG A/AA on the running import's part of the screen (the whole screen is checked in import.e2e).
    const axe = await axeCheck(page, '.import-progress');
    assert.deepEqual(
      axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
      [],
    );

    await page.getByRole('button', { name: 'Cancel import' }).click();
    const stopped = page.getByRole('status').filter({ hasText: /^Stopped\./ });
    await stopped.waitFor();
    const message = (await stopped.textContent()) ?? '';
    const said = Number(
      /^Stopped\. At least ([\d,]+) items were written; importing the same files again finishes the rest without duplicates\.$/
        .exec(message)?.[1]
        ?.replace(/,/g, ''),
    );
    assert.ok(said >= 3, message);
    assert.equal(await bar.count(), 0, 'the bar goes with the import');
    assert.equal(await page.getByRole('button', { name: 'Cancel import' }).count(), 0);
    // Cancel import is gone: focus is on what the person reads next, not dropped to <body>.
    assert.match(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), /^Stopped\./);
    // What has been imported does not pass for whole.
    await page.getByText(/The last import stopped before it finished/).waitFor();

    // The server stopped: what was written stays, and nothing more arrives.
    await new Promise((r) => setTimeout(r, 300));
    const written = await records();
    assert.ok(written >= said && written < total, `stopped part way (${written} of ${total}, said ${said})`);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await records(), written, 'no Record arrives after the cancel');

    // The same files again: the rest is written, nothing twice. Its progress survives a look elsewhere.
    await page.getByRole('button', { name: `Import ${total} files` }).click();
    await bar.waitFor();
    await nav.getByRole('link', { name: 'Records' }).click();
    await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
    await nav.getByRole('link', { name: 'Import' }).click();
    const summary = page.locator('.import-summary');
    await summary.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: importMs });
    assert.match(
      (await summary.textContent()) ?? '',
      new RegExp(
        `${(total - written).toLocaleString('en-US')} new items imported, ${written} items already here`,
      ),
    );
    assert.equal(await records(), total, 'every note once');
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});

test('reloading during an import asks first; afterwards the screen says the import did not finish', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'cut', name: 'Cut' });
    const { page, problems } = await openUi(context(), app);
    await page.getByRole('link', { name: 'Cut' }).click();
    const nav = page.getByRole('navigation', { name: 'Brain cut' });
    await nav.getByRole('link', { name: 'Import' }).click();
    await page.getByLabel('Files', { exact: true }).setInputFiles(notes);
    await page.getByRole('button', { name: `Import ${total} files` }).click();
    await page.waitForFunction(barValueAtLeast, 3);

    // The browser asks before the page goes; the person goes anyway.
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await page.reload();
    assert.deepEqual(asked, ['beforeunload']);
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    const notice = page.locator('.import-leftover');
    await notice.getByText(/did not finish: the page was reloaded or closed while it ran/).waitFor();
    const said = Number(/At least ([\d,]+) items were written/.exec(await notice.innerText())?.[1]);
    assert.ok(said >= 3, await notice.innerText());
    await page.getByText(/The last import stopped before it finished/).waitFor();
    const written = (await app.api.getCensus('cut')).counts.records;
    assert.ok(written >= said && written < total, `stopped part way (${written} of ${total})`);

    // Importing again finishes it, and the notices go.
    await page.getByLabel('Files', { exact: true }).setInputFiles(notes);
    await page.getByRole('button', { name: `Import ${total} files` }).click();
    await page
      .locator('.import-summary')
      .getByRole('heading', { name: 'Import finished' })
      .waitFor({ timeout: importMs });
    assert.equal(await page.getByText(/The last import stopped before it finished/).count(), 0);
    assert.equal(await notice.count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});
