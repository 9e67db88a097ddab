import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BrainSequence, MemoryReads } from '../ports/index.ts';
import { brainNames } from './brain-names.ts';
import type { EngineCtx } from './local-ctx.ts';

/** A Brain's store as the names see it: its names, its step, and how often each was read. */
function brainAt(subjects: string[], owners: string[]) {
  const state = { seq: 1, subjects, owners, subjectReads: 0, ownerReads: 0 };
  const memories = {
    subjectNames: async () => (state.subjectReads++, [...state.subjects]),
    ownerNames: async () => (state.ownerReads++, [...state.owners]),
  } as unknown as MemoryReads;
  const sequence: BrainSequence = { next: async () => ++state.seq, current: async () => state.seq };
  return { state, u: { memories, sequence } };
}

describe("a Brain's names for the subject and owner filters", () => {
  it('are read once while the Brain does not change, and again after any step', async () => {
    const ctx = {} as EngineCtx;
    const { state, u } = brainAt(['Marko Babić'], ['marko babic']);
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await brainNames(ctx, 'brn_a', u).subjectNames(), ['Marko Babić']);
      assert.deepEqual(await brainNames(ctx, 'brn_a', u).ownerNames(), ['marko babic']);
    }
    assert.deepEqual([state.subjectReads, state.ownerReads], [1, 1]);

    state.subjects = ['Marko Babić', 'Ines'];
    await u.sequence.next();
    assert.deepEqual(await brainNames(ctx, 'brn_a', u).subjectNames(), ['Marko Babić', 'Ines']);
    assert.deepEqual([state.subjectReads, state.ownerReads], [2, 1]);
  });

  it('are kept per Brain and per engine', async () => {
    const ctx = {} as EngineCtx;
    const a = brainAt(['Ana'], []);
    const b = brainAt(['Bruno'], []);
    assert.deepEqual(await brainNames(ctx, 'brn_a', a.u).subjectNames(), ['Ana']);
    assert.deepEqual(await brainNames(ctx, 'brn_b', b.u).subjectNames(), ['Bruno']);
    assert.deepEqual(await brainNames({} as EngineCtx, 'brn_a', b.u).subjectNames(), ['Bruno']);
    assert.deepEqual(await brainNames(ctx, 'brn_a', a.u).subjectNames(), ['Ana']);
    assert.equal(a.state.subjectReads, 1);
  });

  it('hand each caller its own copy', async () => {
    const ctx = {} as EngineCtx;
    const { u } = brainAt(['Ana'], []);
    (await brainNames(ctx, 'brn_a', u).subjectNames()).push('Eve');
    assert.deepEqual(await brainNames(ctx, 'brn_a', u).subjectNames(), ['Ana']);
  });

  it('are not kept when the read fails', async () => {
    const ctx = {} as EngineCtx;
    const { state, u } = brainAt(['Ana'], []);
    const failing = {
      ...u,
      memories: { subjectNames: async () => Promise.reject(new Error('busy')) } as unknown as MemoryReads,
    };
    await assert.rejects(brainNames(ctx, 'brn_a', failing).subjectNames(), /busy/);
    assert.deepEqual(await brainNames(ctx, 'brn_a', u).subjectNames(), ['Ana']);
    assert.equal(state.subjectReads, 1);
  });
});
