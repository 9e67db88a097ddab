// Forgetting a Record whose Memory another Record repeats: the person says "I live in Braga.", the
// assistant reads it back, and the engine cites both for "Ana lives in Braga". The Forget dialog names
// the reply and lets the person forget it too; left, the Memory stays on the reply alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  appPerFile,
  browserPerFile,
  checkScreen,
  derivationSettled,
  focusedElement,
  navigateInPlace,
} from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');

/** A Brain of Ana's where she says where she lives and the assistant reads it back, in one thread. */
async function echoed(brainId: string): Promise<{ said: string; reply: string; memory: string }> {
  const api = app().api;
  await api.createBrain({ id: brainId, name: brainId, self: { type: 'person', name: 'Ana' } });
  const said = await api.rememberRecord(brainId, {
    content: { kind: 'message', text: 'I live in Braga.', speaker: 'self', thread: 'chat-1' },
    occurred_at: '2026-03-01T10:00:00Z',
  });
  const reply = await api.rememberRecord(brainId, {
    content: { kind: 'message', text: 'Noted: you live in Braga.', speaker: 'assistant', thread: 'chat-1' },
    occurred_at: '2026-03-01T10:00:05Z',
  });
  await derivationSettled(app(), brainId);
  const [memory] = (await api.getRecord(brainId, said.record.id)).memory_ids;
  assert.ok(memory);
  const detail = await api.getMemory(brainId, memory);
  assert.equal(detail.statement, 'Ana lives in Braga');
  // The premise: the read-back is a citation of the same Memory.
  assert.deepEqual(
    detail.citations.map((c) => c.record_id),
    [said.record.id, reply.record.id],
  );
  return { said: said.record.id, reply: reply.record.id, memory };
}

/** The statements of the Brain's Memories, of any status, once derivation has settled. */
async function statements(brainId: string): Promise<string[]> {
  await derivationSettled(app(), brainId);
  return (await app().api.listMemories(brainId, { status: 'all' })).data.map((m) => m.statement);
}

async function openForget(page: Page, brainId: string, recordId: string) {
  await navigateInPlace(page, `/brains/${brainId}/records/${recordId}`);
  await page.getByRole('heading', { level: 1, name: 'You: I live in Braga.' }).waitFor();
  await page.getByRole('button', { name: 'Forget this Record' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forget this Record?' });
  await dialog.waitFor();
  return dialog;
}

test("forgetting a Record with the assistant's read-back chosen too removes both and the Memory", async () => {
  const { said, reply } = await echoed('echo-both');
  const { page, problems } = await ui();
  const dialog = await openForget(page, 'echo-both', said);
  const choice = dialog.getByRole('checkbox', { name: 'assistant: Noted: you live in Braga.' });
  await choice.waitFor();
  // Who said it and when, and which Memory it holds up.
  const group = dialog.getByRole('group', { name: 'Other Records that support the same Memories' });
  assert.match(await group.innerText(), /Message, said Mar 1, 2026/);
  assert.match(await group.innerText(), /Supports: “Ana lives in Braga”/);
  assert.equal(await choice.isChecked(), false, 'nothing more is chosen for the person');
  const outcome = dialog.getByTestId('forget-outcome');
  assert.equal(
    await outcome.innerText(),
    'This removes this Record. “Ana lives in Braga” stays, resting on the Records kept.',
  );
  // By keyboard: Cancel has focus first; the checkbox is reached by Tab keys, Space chooses it.
  assert.equal(await focusedElement(page), 'BUTTON Cancel');
  const chosen = () => choice.evaluate((el) => el === el.ownerDocument.activeElement);
  for (let i = 0; i < 8 && !(await chosen()); i += 1) await page.keyboard.press('Shift+Tab');
  assert.ok(await chosen(), 'Shift+Tab from Cancel reaches the checkbox');
  await page.keyboard.press('Space');
  assert.equal(await choice.isChecked(), true);
  assert.equal(
    await outcome.innerText(),
    'This removes this Record and 1 other, and with them “Ana lives in Braga”.',
  );
  await checkScreen(page, 'forget-echoes-dialog');
  await dialog.getByRole('button', { name: 'Forget 2 Records' }).click();
  await page.getByRole('heading', { level: 1, name: 'Record forgotten' }).waitFor();
  const receipt = await page
    .getByRole('status')
    .getByText(/^Forgot 2 Records/)
    .innerText();
  assert.match(
    receipt,
    /^Forgot 2 Records: “You: I live in Braga\.” and “assistant: Noted: you live in Braga\.”, and 1 Memory that rested only on them\.$/,
  );
  await assert.rejects(app().api.getRecord('echo-both', said), { code: 'record_not_found' });
  await assert.rejects(app().api.getRecord('echo-both', reply), { code: 'record_not_found' });
  assert.deepEqual(await statements('echo-both'), []);
  assert.deepEqual(problems, []);
});

test('left unchosen, the read-back keeps the Memory, and the receipt says it is worked out again', async () => {
  const { said, reply, memory } = await echoed('echo-one');
  const { page, problems } = await ui();
  // From the Records list, the dialog's other home.
  await navigateInPlace(page, '/brains/echo-one/records');
  await page
    .getByRole('listitem')
    .filter({ hasText: said })
    .getByRole('button', { name: /^Forget “/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Forget this Record?' });
  await dialog.getByRole('checkbox', { name: 'assistant: Noted: you live in Braga.' }).waitFor();
  await dialog.getByRole('button', { name: 'Forget Record', exact: true }).click();
  await page
    .getByRole('status')
    .getByText(
      'Forgot the Record “You: I live in Braga.”; 1 Memory that other Records also support is being worked out again.',
    )
    .waitFor();
  await assert.rejects(app().api.getRecord('echo-one', said), { code: 'record_not_found' });
  assert.equal((await app().api.getRecord('echo-one', reply)).id, reply);
  assert.deepEqual(await statements('echo-one'), ['Ana lives in Braga']);
  const kept = await app().api.getMemory('echo-one', memory);
  assert.deepEqual(
    kept.citations.map((c) => c.record_id),
    [reply],
  );
  assert.deepEqual(problems, []);
});

test('the Memories not read, or a chosen Record not forgotten, are said; the Record is still forgotten', async () => {
  const { said, reply } = await echoed('echo-fail');
  const { page, problems } = await ui();
  // The Memory API does not answer: the dialog says it could not list the rest, and still forgets.
  const memories = '**/v1/brains/echo-fail/memories/mem_*';
  await page.route(memories, (route) => route.abort());
  try {
    const dialog = await openForget(page, 'echo-fail', said);
    await dialog.getByText('Could not list the other Records that support its Memories').waitFor();
    assert.equal(await dialog.getByRole('checkbox').count(), 0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await page.unroute(memories);
  }
  // The reply's forget fails: the receipt says what went and what did not.
  const replyUrl = `**/v1/brains/echo-fail/records/${reply}`;
  await page.route(replyUrl, (route) =>
    route.request().method() === 'DELETE' ? route.abort() : route.fallback(),
  );
  try {
    const dialog = await openForget(page, 'echo-fail', said);
    await dialog.getByRole('checkbox', { name: 'assistant: Noted: you live in Braga.' }).check();
    await dialog.getByRole('button', { name: 'Forget 2 Records' }).click();
    await page.getByRole('heading', { level: 1, name: 'Record forgotten' }).waitFor();
    const receipt = await page
      .getByRole('status')
      .getByText(/^Forgot the Record/)
      .innerText();
    assert.match(
      receipt,
      /^Forgot the Record “You: I live in Braga\.”; 1 Memory that other Records also support is being worked out again\. Could not forget “assistant: Noted: you live in Braga\.”: .+ It is still in this Brain\.$/,
    );
  } finally {
    await page.unroute(replyUrl);
  }
  await assert.rejects(app().api.getRecord('echo-fail', said), { code: 'record_not_found' });
  assert.equal((await app().api.getRecord('echo-fail', reply)).id, reply);
  assert.deepEqual(await statements('echo-fail'), ['Ana lives in Braga']);
  assert.deepEqual(
    problems.filter((p) => !/ERR_FAILED|Failed to fetch/.test(p)),
    [],
  );
});

test('many repetitions scroll inside a dialog that fits the window, past the cap counted', async () => {
  const api = app().api;
  await api.createBrain({ id: 'echo-many', name: 'echo-many', self: { type: 'person', name: 'Ana' } });
  const said = await api.rememberRecord('echo-many', {
    content: { kind: 'message', text: 'I live in Braga.', speaker: 'self', thread: 'chat-1' },
    occurred_at: '2026-03-01T10:00:00Z',
  });
  // Said again on later days, each time a citation of the same Memory.
  for (let i = 1; i <= 24; i++)
    await api.rememberRecord('echo-many', {
      content: { kind: 'message', text: 'I live in Braga.', speaker: 'self', thread: `chat-${i}` },
      occurred_at: `2026-03-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
    });
  await derivationSettled(app(), 'echo-many');
  const [memory] = (await api.getRecord('echo-many', said.record.id)).memory_ids;
  assert.equal((await api.getMemory('echo-many', memory!)).citations.length, 25);
  const { page, problems } = await ui();
  const dialog = await openForget(page, 'echo-many', said.record.id);
  await dialog.getByRole('checkbox').first().waitFor();
  assert.equal(await dialog.getByRole('checkbox').count(), 20);
  await dialog.getByText('4 more Records also support them, not listed here').waitFor();
  const box = (await dialog.boundingBox())!;
  assert.ok(box.y >= 0 && box.y + box.height <= 900, `the dialog spans ${box.y}–${box.y + box.height} px`);
  assert.ok(await dialog.getByRole('button', { name: 'Cancel' }).isVisible());
  const list = dialog.locator('.other-records-list');
  const scroll = await list.evaluate((l) => [l.scrollHeight, l.clientHeight]);
  assert.ok(scroll[0]! > scroll[1]!, 'the list scrolls');
  // The last one, focused, is scrolled into view within the list, and Space chooses it.
  const last = dialog.getByRole('checkbox').last();
  await last.focus();
  const inView = await last.evaluate((el) => {
    const list = el.closest('.other-records-list')!.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= list.top && r.bottom <= list.bottom;
  });
  assert.ok(inView, 'the focused checkbox is within the list as scrolled');
  await page.keyboard.press('Space');
  assert.ok(await last.isChecked());
  await checkScreen(page, 'forget-echoes-many');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.deepEqual(problems, []);
});

test('forgetting a withdrawal says which Memory comes back, before and after', async () => {
  const api = app().api;
  await api.createBrain({ id: 'echo-undo', name: 'echo-undo', self: { type: 'person', name: 'Ana' } });
  const said = await api.rememberRecord('echo-undo', {
    content: { kind: 'message', text: 'I live in Braga.', speaker: 'self', thread: 'chat-1' },
    occurred_at: '2026-03-01T10:00:00Z',
  });
  await derivationSettled(app(), 'echo-undo');
  const [memory] = (await api.getRecord('echo-undo', said.record.id)).memory_ids;
  const withdrawal = await api.rememberRecord('echo-undo', {
    content: { kind: 'correction', corrects: memory! },
  });
  await derivationSettled(app(), 'echo-undo');
  assert.equal((await api.getMemory('echo-undo', memory!)).status, 'retracted');
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/echo-undo/records/${withdrawal.record.id}`);
  await page.getByRole('button', { name: 'Forget this Record' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forget this Record?' });
  await dialog
    .getByText(
      'This Record withdrew the Memory “Ana lives in Braga”: forgetting it brings that Memory back as current.',
    )
    .waitFor();
  assert.match(await dialog.locator('blockquote').innerText(), /^Withdrawal of “Ana lives in Braga”/);
  // What else goes is said before: the Traces that would show it.
  await dialog.getByText(/The Traces of questions that found it go too/).waitFor();
  await dialog.getByRole('button', { name: 'Forget Record', exact: true }).click();
  await page
    .getByRole('status')
    .getByText(/“Ana lives in Braga” is back as it was\.$/)
    .waitFor();
  await derivationSettled(app(), 'echo-undo');
  assert.equal((await api.getMemory('echo-undo', memory!)).status, 'active');
  assert.deepEqual(problems, []);
});
