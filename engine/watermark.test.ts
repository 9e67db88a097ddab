import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { WatermarkCodec } from './watermark.ts';

describe('WatermarkCodec', () => {
  const codec = new WatermarkCodec(randomBytes(32));

  it('round-trips a sequence for its own Brain', () => {
    assert.equal(codec.decode(codec.encode('brainA', 42), 'brainA'), 42);
  });

  it('refuses other Brains, truncation, tampering and other secrets', () => {
    const wm = codec.encode('brainA', 42);
    assert.throws(() => codec.decode(wm, 'brainB'), { code: 'invalid_watermark' });
    assert.throws(() => codec.decode(wm.slice(0, -3), 'brainA'), { code: 'invalid_watermark' });
    const tampered = `wm_${Buffer.from(Buffer.from(wm.slice(3), 'base64url').toString().replace('.42.', '.43.')).toString('base64url')}`;
    assert.throws(() => codec.decode(tampered, 'brainA'), { code: 'invalid_watermark' });
    assert.throws(() => new WatermarkCodec(randomBytes(32)).decode(wm, 'brainA'), {
      code: 'invalid_watermark',
    });
    assert.throws(() => codec.decode('nonsense', 'brainA'), { code: 'invalid_watermark' });
  });

  it('carries a place within a step, which every reader but the change feed takes for the step before', () => {
    const wm = codec.encode('brainA', 42, { removal: true, id: 'rec_01M8GA4DNAKFBAD9VVVCSJ3164' });
    assert.deepEqual(codec.decodePlace(wm, 'brainA'), {
      seq: 42,
      within: { removal: true, id: 'rec_01M8GA4DNAKFBAD9VVVCSJ3164' },
    });
    assert.equal(codec.decode(wm, 'brainA'), 41);
    assert.deepEqual(codec.decodePlace(codec.encode('brainA', 42), 'brainA'), { seq: 42 });
    const odd = codec.encode('brainA', 7, { removal: false, id: 'rec.with.dots' });
    assert.deepEqual(codec.decodePlace(odd, 'brainA').within, { removal: false, id: 'rec.with.dots' });
  });

  it('refuses a place it did not write', () => {
    const wm = codec.encode('brainA', 42, { removal: true, id: 'rec_a' });
    const raw = Buffer.from(wm.slice(3), 'base64url').toString();
    const other = `.t${Buffer.from('rec_b').toString('base64url')}.`;
    const moved = `wm_${Buffer.from(raw.replace(/\.t[^.]+\./, other)).toString('base64url')}`;
    assert.throws(() => codec.decodePlace(moved, 'brainA'), { code: 'invalid_watermark' });
    const whole = codec.encode('brainA', 42);
    const wholeRaw = Buffer.from(whole.slice(3), 'base64url').toString().split('.');
    const added = `wm_${Buffer.from([wholeRaw[0], wholeRaw[1], 'tcmVjX2E', wholeRaw[2]].join('.')).toString('base64url')}`;
    assert.throws(() => codec.decode(added, 'brainA'), { code: 'invalid_watermark' });
  });

  it('carries a place within a step of a delta read of Memories, a removal by id or a change by n', () => {
    const removal = codec.encodeMemoryPlace('brainA', 42, { removal: true, id: 'mem.with.dots' });
    assert.deepEqual(codec.decodeMemoryPlace(removal, 'brainA'), {
      seq: 42,
      within: { removal: true, id: 'mem.with.dots' },
    });
    const change = codec.encodeMemoryPlace('brainA', 42, { removal: false, n: 1_234_567 });
    assert.deepEqual(codec.decodeMemoryPlace(change, 'brainA'), {
      seq: 42,
      within: { removal: false, n: 1_234_567 },
    });
    assert.deepEqual(codec.decodeMemoryPlace(codec.encode('brainA', 42), 'brainA'), { seq: 42 });
    assert.throws(() => codec.decodeMemoryPlace(change, 'brainB'), { code: 'invalid_watermark' });
  });

  it("takes the other reader's place within a step for the step before", () => {
    for (const wm of [
      codec.encodeMemoryPlace('brainA', 42, { removal: true, id: 'mem_a' }),
      codec.encodeMemoryPlace('brainA', 42, { removal: false, n: 7 }),
    ]) {
      assert.deepEqual(codec.decodePlace(wm, 'brainA'), { seq: 41 });
      assert.equal(codec.decode(wm, 'brainA'), 41);
    }
    const feed = codec.encode('brainA', 42, { removal: true, id: 'rec_a' });
    assert.deepEqual(codec.decodeMemoryPlace(feed, 'brainA'), { seq: 41 });
  });

  it("refuses a Memory place it did not write, or one turned into the change feed's", () => {
    const wm = codec.encodeMemoryPlace('brainA', 42, { removal: false, n: 7 });
    const raw = Buffer.from(wm.slice(3), 'base64url').toString();
    for (const forged of ['.m8.', '.x7.', '.r7.']) {
      const moved = `wm_${Buffer.from(raw.replace('.m7.', forged)).toString('base64url')}`;
      assert.throws(() => codec.decodeMemoryPlace(moved, 'brainA'), { code: 'invalid_watermark' });
      assert.throws(() => codec.decodePlace(moved, 'brainA'), { code: 'invalid_watermark' });
    }
  });
});
