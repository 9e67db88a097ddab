import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { MnemoError } from './errors/mnemo-error.ts';

/**
 * A place inside one step of a Brain's sequence, in the change feed's order (the Records written
 * there, then the ids forgotten there, each by id): everything up to and including this entry.
 */
export interface StepPlace {
  removal: boolean;
  id: string;
}

/** Where a watermark stands: after step `seq` whole, or, with `within`, partway into step `seq`. */
export interface FeedPlace {
  seq: number;
  within?: StepPlace | undefined;
}

/**
 * Watermarks are `wm_` + base64url(brainUid . sequence [. place] . mac): opaque to callers, comparable
 * within the Brain that issued them, and unforgeable because the MAC is keyed by a secret the engine
 * holds. `brainUid` is unique per Brain incarnation, so a watermark of a deleted-and-recreated Brain,
 * or of a Brain in another tenant, is refused. Only the change feed issues one with a place (a step too
 * large for one page: a forgotten import); every other reader takes it for the step before.
 */
export class WatermarkCodec {
  /** Imported once: an HMAC keyed by raw bytes imports them again on every write (~40% of its cost). */
  private readonly key: KeyObject;

  constructor(secret: Buffer) {
    this.key = createSecretKey(secret);
  }

  encode(brainUid: string, seq: number, within?: StepPlace): string {
    // The id in base64url: no '.' can reach the body, whatever an id holds.
    const place = within
      ? `.${within.removal ? 't' : 'r'}${Buffer.from(within.id).toString('base64url')}`
      : '';
    const body = `${brainUid}.${seq}${place}`;
    return `wm_${Buffer.from(`${body}.${this.mac(body)}`).toString('base64url')}`;
  }

  /**
   * Returns the last step the watermark covers whole (the one before, for a place within a step), or
   * throws invalid_watermark.
   */
  decode(watermark: string, brainUid: string, what = 'since_watermark'): number {
    const { seq, within } = this.decodePlace(watermark, brainUid, what);
    return within ? seq - 1 : seq;
  }

  /** Returns where the watermark stands, or throws invalid_watermark. */
  decodePlace(watermark: string, brainUid: string, what = 'since_watermark'): FeedPlace {
    const fail = () => new MnemoError('invalid_watermark', `${what}: not a watermark issued by this Brain`);
    if (!watermark.startsWith('wm_')) throw fail();
    const raw = Buffer.from(watermark.slice(3), 'base64url').toString('utf8');
    const parts = raw.split('.');
    if (parts.length !== 3 && parts.length !== 4) throw fail();
    const mac = parts.pop()!;
    const expected = Buffer.from(this.mac(parts.join('.')));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw fail();
    const [uid, seqText, place] = parts as [string, string, string | undefined];
    if (uid !== brainUid || !/^\d+$/.test(seqText)) throw fail();
    const seq = Number(seqText);
    if (place === undefined) return { seq };
    if (!/^[rt][A-Za-z0-9_-]+$/.test(place) || seq === 0) throw fail();
    return {
      seq,
      within: { removal: place[0] === 't', id: Buffer.from(place.slice(1), 'base64url').toString() },
    };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }
}
