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
 * A place inside one step of a delta read of Memories, in its order (the Memories removed there, by
 * id, then those changed there, in write order `n`): everything up to and including this entry. A
 * change is named by `n`, not its id: the read goes on by `n`, which a Memory keeps for good.
 */
export type MemoryStepPlace = { removal: true; id: string } | { removal: false; n: number };

/** Where a watermark stands for a delta read of Memories, as FeedPlace for the change feed. */
export interface MemoryPlace {
  seq: number;
  within?: MemoryStepPlace | undefined;
}

/**
 * Watermarks are `wm_` + base64url(brainUid . sequence [. place] . mac): opaque to callers, comparable
 * within the Brain that issued them, and unforgeable because the MAC is keyed by a secret the engine
 * holds. `brainUid` is unique per Brain incarnation, so a watermark of a deleted-and-recreated Brain,
 * or of a Brain in another tenant, is refused. The Record change feed and a delta read of Memories issue
 * one with a place when a step is too large for one page (a forgotten import), each in its own order;
 * every other reader, the other of those two included, takes it for the step before.
 */
export class WatermarkCodec {
  /** Imported once: an HMAC keyed by raw bytes imports them again on every write (~40% of its cost). */
  private readonly key: KeyObject;

  constructor(secret: Buffer) {
    this.key = createSecretKey(secret);
  }

  /** A watermark for the change feed: after step `seq`, or `within` it. */
  encode(brainUid: string, seq: number, within?: StepPlace): string {
    // The id in base64url: no '.' can reach the body, whatever an id holds.
    const place = within
      ? `${within.removal ? 't' : 'r'}${Buffer.from(within.id).toString('base64url')}`
      : '';
    return this.sign(brainUid, seq, place);
  }

  /** A watermark for a delta read of Memories: after step `seq`, or `within` it. */
  encodeMemoryPlace(brainUid: string, seq: number, within?: MemoryStepPlace): string {
    // Letters of their own, so the change feed, which names its entries with `r` and `t`, tells them apart.
    const place = !within
      ? ''
      : within.removal
        ? `x${Buffer.from(within.id).toString('base64url')}`
        : `m${within.n}`;
    return this.sign(brainUid, seq, place);
  }

  /**
   * Returns the last step the watermark covers whole (the one before, for a place within a step), or
   * throws invalid_watermark.
   */
  decode(watermark: string, brainUid: string, what = 'since_watermark'): number {
    const { seq, place } = this.open(watermark, brainUid, what);
    return place !== undefined ? seq - 1 : seq;
  }

  /** Returns where the watermark stands for the change feed, or throws invalid_watermark. */
  decodePlace(watermark: string, brainUid: string, what = 'since_watermark'): FeedPlace {
    const { seq, place } = this.open(watermark, brainUid, what);
    if (place === undefined) return { seq };
    if (place[0] !== 'r' && place[0] !== 't') return { seq: seq - 1 };
    return {
      seq,
      within: { removal: place[0] === 't', id: Buffer.from(place.slice(1), 'base64url').toString() },
    };
  }

  /** Returns where the watermark stands for a delta read of Memories, or throws invalid_watermark. */
  decodeMemoryPlace(watermark: string, brainUid: string, what = 'since_watermark'): MemoryPlace {
    // The Brain's beginning, as the Record feed takes it: a first delta read needs no watermark kept.
    if (watermark === 'start') return { seq: 0 };
    const { seq, place } = this.open(watermark, brainUid, what);
    if (place === undefined) return { seq };
    if (place[0] === 'x')
      return { seq, within: { removal: true, id: Buffer.from(place.slice(1), 'base64url').toString() } };
    if (place[0] === 'm') return { seq, within: { removal: false, n: Number(place.slice(1)) } };
    return { seq: seq - 1 };
  }

  private sign(brainUid: string, seq: number, place: string): string {
    const body = place ? `${brainUid}.${seq}.${place}` : `${brainUid}.${seq}`;
    return `wm_${Buffer.from(`${body}.${this.mac(body)}`).toString('base64url')}`;
  }

  /** The step and place (its kind letter first) the watermark names, once its MAC is checked. */
  private open(watermark: string, brainUid: string, what: string): { seq: number; place?: string } {
    const fail = () =>
      new MnemoError(
        'invalid_watermark',
        `${what}: not a watermark issued by this Brain (one of another Brain, of an earlier Brain of this id, or from before its store was restored): leave it out and read afresh`,
      );
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
    if (!/^(?:[rtx][A-Za-z0-9_-]+|m\d+)$/.test(place) || seq === 0) throw fail();
    return { seq, place };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }
}
