import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { embedderChoice } from './embedder-choice.ts';

describe('MNEMO_EMBEDDER', () => {
  const before = process.env.MNEMO_EMBEDDER;
  afterEach(() => {
    if (before === undefined) delete process.env.MNEMO_EMBEDDER;
    else process.env.MNEMO_EMBEDDER = before;
  });
  const choose = (value: string | undefined) => {
    if (value === undefined) delete process.env.MNEMO_EMBEDDER;
    else process.env.MNEMO_EMBEDDER = value;
    return embedderChoice({ engine: 'local', port: 0 }, '/nonexistent');
  };

  it('names the provider, none for no semantic lane, the default when unset or empty', () => {
    assert.equal(choose('none'), null);
    for (const p of ['hash', 'glove-sif', 'onnx'] as const) assert.equal(choose(p)?.provider, p);
    // The default: a choice with no provider named (null would be none at all).
    for (const unset of [undefined, '']) {
      const chosen = choose(unset);
      assert.notEqual(chosen, null);
      assert.equal(chosen?.provider, undefined);
    }
  });

  it('refuses a name it does not know, saying which it takes, rather than run the default in silence', () => {
    for (const bad of ['bogus', 'ONNX', 'glove'])
      assert.throws(
        () => choose(bad),
        new RegExp(`^Error: MNEMO_EMBEDDER must be none, hash, glove-sif or onnx, not "${bad}"$`),
      );
  });
});
