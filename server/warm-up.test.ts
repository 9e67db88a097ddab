import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countTokens, tokenizerLoadStarted } from '../engine/core/shared/count-tokens.ts';
import { startServer, warmUpDelayMs } from './start-server.ts';

const loaded = () => {
  try {
    countTokens('warm');
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20)))
    if (check()) return true;
  return check();
}

// One file, one process: nothing else here loads the tokenizer.
describe('a server started to warm up', () => {
  it('leaves the tokenizer to the first Context unless asked, then loads it a moment after listening', async () => {
    const plain = await startServer({ engine: 'reference', port: 0 });
    try {
      assert.equal(await until(tokenizerLoadStarted, 300), false, 'a plain server does not load it');
    } finally {
      await plain.close();
    }
    const stopped = await startServer({ engine: 'reference', port: 0, warmUp: true });
    await stopped.close();
    assert.equal(
      await until(tokenizerLoadStarted, warmUpDelayMs + 500),
      false,
      'a server stopped first never loads it',
    );
    const warm = await startServer({ engine: 'reference', port: 0, warmUp: true });
    try {
      // A first request, answered over several turns of the event loop: the load has not begun.
      assert.equal((await fetch(`${warm.url}/brains`)).status, 401);
      assert.equal(tokenizerLoadStarted(), false, 'not begun while the first requests come in');
      assert.equal(await until(loaded, 10_000), true, 'loaded with no Context asked');
    } finally {
      await warm.close();
    }
  });
});
