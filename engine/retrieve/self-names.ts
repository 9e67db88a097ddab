import { slotPrefix } from '../core/derive/slot-key.ts';
import { slotValueAsSaid } from '../core/derive/slot-value.ts';
import { foldText } from '../core/shared/fold-text.ts';
import type { LaneInput } from './lane.ts';

/** The Brain's own person's names as a query may name her. */
export interface SelfNames {
  /** Her name as the Brain has it (its `self.name`); null when the Brain has no self. */
  name: string | null;
  /**
   * The names she said people call her by ("most people call me Tom": "tom"), folded, none her name or
   * a word of it: the values of her `nickname` slot that hold it still (core/derive/nickname.ts).
   */
  nicknames: string[];
}

const fold = (name: string) => foldText(name).trim().replace(/\s+/gu, ' ');

/**
 * The Brain's own person's names (SelfNames), read once per request (the memo). Her nicknames are
 * Memories, so forgetting the Record that said one forgets that she is called by it, and a new one
 * ("call me Tomo") replaces the old as a new home does. Read whatever Records the request may see: a
 * nickname says whom a question names, and finds nothing by itself.
 */
export function selfNames(input: Pick<LaneInput, 'slots' | 'eligibility' | 'memo'>): Promise<SelfNames> {
  const memo = input.memo?.get('selfNames') as Promise<SelfNames> | undefined;
  if (memo) return memo;
  const found = (async (): Promise<SelfNames> => {
    const brainUid = input.eligibility.brainUid;
    const name = await input.slots.selfName(brainUid);
    if (name === null) return { name, nicknames: [] };
    const own = new Set([fold(name), ...fold(name).split(' ')]);
    const held = await input.slots.current(brainUid, [`${slotPrefix(name)}nickname`]);
    const nicknames = held.flatMap((m) => {
      const value = slotValueAsSaid(m);
      return value === null || own.has(fold(value)) ? [] : [fold(value)];
    });
    return { name, nicknames: [...new Set(nicknames)].sort() };
  })();
  input.memo?.set('selfNames', found);
  return found;
}
