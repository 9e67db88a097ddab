import { everydayNames } from '../core/derive/nickname.ts';
import { slotPrefix } from '../core/derive/slot-key.ts';
import { slotValueAsSaid } from '../core/derive/slot-value.ts';
import { foldText } from '../core/shared/fold-text.ts';
import type { LaneInput } from './lane.ts';
import { matchesOf } from '../contract/matches-of.ts';

/** The Brain's own person's names as a query may name her. */
export interface SelfNames {
  /** Her name as the Brain has it (its `self.name`); null when the Brain has no self. */
  name: string | null;
  /**
   * The names she said people call her by ("most people call me Tom": "tom"), folded, none her name or
   * a word of it: the values her `nickname` slot holds or held (core/derive/nickname.ts).
   */
  nicknames: string[];
}

const fold = (name: string) => foldText(name).trim().replace(/\s+/gu, ' ');

/**
 * The Brain's own person's names (SelfNames), read once per request (the memo). Her nicknames are
 * Memories, so forgetting the Record that said one forgets that she is called by it, and a correction
 * of one takes it back. Each she said still names her once another is said ("My colleagues call me
 * Kova." after "Most people call me Tom."): the slot holds the latest, the one she goes by now, and a
 * question by the other asks about her still. Read whatever Records the request may see: a nickname says
 * whom a question names, and finds nothing by itself.
 */
export function selfNames(input: Pick<LaneInput, 'slots' | 'eligibility' | 'memo'>): Promise<SelfNames> {
  const memo = input.memo?.get('selfNames') as Promise<SelfNames> | undefined;
  if (memo) return memo;
  const found = (async (): Promise<SelfNames> => {
    const brainUid = input.eligibility.brainUid;
    const name = await input.slots.selfName(brainUid);
    if (name === null) return { name, nicknames: [] };
    const own = new Set([fold(name), ...fold(name).split(' ')]);
    const held = await input.slots.held(brainUid, [`${slotPrefix(name)}nickname`]);
    const nicknames = held.flatMap((m) => {
      const value = slotValueAsSaid(m);
      return value === null || own.has(fold(value)) ? [] : [fold(value)];
    });
    return { name, nicknames: [...new Set(nicknames)].sort() };
  })();
  input.memo?.set('selfNames', found);
  return found;
}

/**
 * The nicknames of hers (folded) that `query` names. One that is an everyday word too ("Will", "Mark",
 * "May": nickname.ts `everydayNames`) only where the query writes it capitalised, not opening a
 * sentence: "Where will Luka work?" and "Will Luka move?" ask about Luka, "Where does Will work?" about
 * her. Any other in any case ("where does tom live").
 */
export function nicknamesNamed(query: string, nicknames: readonly string[]): string[] {
  if (nicknames.length === 0) return [];
  const words = [...matchesOf(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’.-]*/gu, query)].map((m) => ({
    folded: fold(m[0].replace(/['’]s$/u, '').replace(/(?<!\.)\.+$/u, '')),
    written: m[0],
    opens: /(?:^|[.!?¿¡:;"“(]\s*)$/u.test(query.slice(0, m.index)),
  }));
  return nicknames.filter((n) => {
    const parts = n.split(' ');
    return words.some((w, i) => {
      if (!parts.every((p, j) => words[i + j]?.folded === p)) return false;
      if (!everydayNames.has(parts[0]!)) return true;
      return /^\p{Lu}/u.test(w.written) && !w.opens;
    });
  });
}
