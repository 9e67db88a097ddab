import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir, tenant, withBrain } from './local-helpers.ts';

describe('a Context found by meaning alone', () => {
  it('says so, and counts the question among the unknowns; one that shares a word does not', async () => {
    const { engine, remember } = await withBrain({ embedder: { provider: 'glove-sif', dataDir: tempDir() } });
    await remember({
      content: { kind: 'message', speaker: 'Ana', text: 'My cousin Ivana is a nurse.' },
    });
    await remember({ content: { kind: 'message', speaker: 'Ana', text: 'I ran 8 km along the Douro.' } });
    await engine.idle();
    const ask = (query: string) => engine.createContext(tenant, 'b', { query }, { requestId: 'r' });

    const sister = await ask('Who is my sister?');
    assert.equal(sister.status, 'ready');
    // The cousin is the nearest by meaning: served, but not as an answer about a sister.
    assert.ok(sister.citations.length > 0, 'the semantic lane found the cousin');
    assert.deepEqual(sister.unknowns, ['Who is my sister?']);
    assert.equal(sister.abstained, undefined);
    assert.match(
      sister.text ?? '',
      /^Quoted evidence[^\n]*found by meaning alone, and may not answer it\.\n/u,
    );

    const cousin = await ask('What does my cousin do?');
    assert.equal(cousin.status, 'ready');
    assert.deepEqual(cousin.unknowns, []);
    assert.doesNotMatch(cousin.text ?? '', /meaning alone/u);
  });
});
