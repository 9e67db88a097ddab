import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundHeapGrowth } from './heap-growth.ts';

describe("the server's bound on V8's heap growth", () => {
  it('is set unless node was given a growing factor on its command line or in NODE_OPTIONS', () => {
    assert.equal(boundHeapGrowth(['--enable-source-maps'], '--max-old-space-size=4096'), true);
    assert.equal(boundHeapGrowth(['--heap-growing-percent=25'], ''), false);
    assert.equal(boundHeapGrowth([], '--import tsx --heap_growing_percent=80'), false);
  });
});
