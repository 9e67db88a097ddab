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
});
