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
});
