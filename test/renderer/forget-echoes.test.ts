// The Forget-Record dialog's pure logic: which other Records hold up a Record's Memories, what forgetting
// the chosen ones leaves, and the sentence that says what a forget of several Records did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeletionReceipt } from '../../engine/contract/index.ts';
import { recordsForgotten } from '../../renderer/forgotten.ts';
import { afterForgetting, otherSupport, type SupportedMemory } from '../../renderer/other-support.ts';

const cites = (...ids: string[]) => ids.map((record_id) => ({ record_id, quote: 'q' }));
const memories: SupportedMemory[] = [
  { id: 'mem_city', label: 'Ana lives in Braga', citations: cites('rec_said', 'rec_reply') },
  { id: 'mem_job', label: 'Ana works at Acme', citations: cites('rec_said') },
  { id: 'mem_cat', label: 'Ana has a cat', citations: cites('rec_reply', 'rec_said', 'rec_note') },
];

test("the other Records are those a Record's Memories cite besides it, first cited first", () => {
  assert.deepEqual(otherSupport('rec_said', memories), [
    {
      recordId: 'rec_reply',
      memories: [
        { id: 'mem_city', label: 'Ana lives in Braga' },
        { id: 'mem_cat', label: 'Ana has a cat' },
      ],
    },
    { recordId: 'rec_note', memories: [{ id: 'mem_cat', label: 'Ana has a cat' }] },
  ]);
  // A Memory resting only on the Record names none; a Record cited twice by one Memory is named once.
  assert.deepEqual(otherSupport('rec_said', [memories[1]!]), []);
  assert.deepEqual(otherSupport('rec_said', [{ id: 'm', label: 'x', citations: cites('rec_a', 'rec_a') }]), [
    { recordId: 'rec_a', memories: [{ id: 'm', label: 'x' }] },
  ]);
});

test('a Memory goes when every other Record it rests on is chosen too, and stays on any kept', () => {
  assert.deepEqual(afterForgetting('rec_said', memories, new Set()), {
    goes: [],
    stays: ['Ana lives in Braga', 'Ana has a cat'],
  });
  assert.deepEqual(afterForgetting('rec_said', memories, new Set(['rec_reply'])), {
    goes: ['Ana lives in Braga'],
    stays: ['Ana has a cat'],
  });
  assert.deepEqual(afterForgetting('rec_said', memories, new Set(['rec_reply', 'rec_note'])), {
    goes: ['Ana lives in Braga', 'Ana has a cat'],
    stays: [],
  });
});

const receipt = (memories: number, rederiving: number): DeletionReceipt => ({
  object: 'deletion_receipt',
  target: { type: 'record', id: 'rec_1' },
  deleted: { records: 1, memories, objects: 0 },
  rederiving: { memories: rederiving },
  watermark: null,
  deleted_at: '2026-03-01T00:00:00Z',
});

test('forgetting several Records names each, and counts each Memory once', () => {
  // One Record alone reads as it always did.
  assert.equal(
    recordsForgotten([{ summary: 'You: I live in Braga.', receipt: receipt(0, 1) }]),
    'Forgot the Record “You: I live in Braga.”; 1 Memory that other Records also support is being worked out again.',
  );
  // The first forget left the Memory to the reply; the second deleted it: nothing is being worked out.
  assert.equal(
    recordsForgotten([
      { summary: 'You: I live in Braga.', receipt: receipt(0, 1) },
      { summary: 'assistant: Noted: you live in Braga.', receipt: receipt(1, 0) },
    ]),
    'Forgot 2 Records: “You: I live in Braga.” and “assistant: Noted: you live in Braga.”, and 1 Memory that rested only on them.',
  );
  // More left to be worked out than later forgets deleted: some certainly are.
  assert.equal(
    recordsForgotten([
      { summary: 'a', receipt: receipt(1, 2) },
      { summary: 'b', receipt: receipt(1, 0) },
      { summary: 'c', receipt: receipt(0, 0) },
    ]),
    'Forgot 3 Records: “a”, “b” and “c”, and 2 Memories that rested only on them; Memories that other Records also support are being worked out again.',
  );
});

test('a chosen Record that could not be forgotten is named with why, after what was', () => {
  assert.equal(
    recordsForgotten([
      { summary: 'You: I live in Braga.', receipt: receipt(0, 1) },
      { summary: 'assistant: Noted: you live in Braga.', error: 'Mnemo cannot be reached (network_error)' },
    ]),
    'Forgot the Record “You: I live in Braga.”; 1 Memory that other Records also support is being worked out again.' +
      ' Could not forget “assistant: Noted: you live in Braga.”: Mnemo cannot be reached (network_error). It is still in this Brain.',
  );
  assert.equal(
    recordsForgotten([
      { summary: 'a', receipt: receipt(0, 0) },
      { summary: 'b', receipt: receipt(1, 0) },
      { summary: 'c', error: 'No Record rec_c in this Brain.', alreadyGone: true },
    ]),
    'Forgot 2 Records: “a” and “b”, and 1 Memory that rested only on them. “c” was no longer in this Brain: it had been forgotten already.',
  );
});
