import { humanizePredicate } from '../../contract/fact-line.ts';
import { normalizeStatement } from './record-text.ts';

/** The part of a slot key its subject decides: every slot of that subject starts with it. */
export function slotPrefix(subject: string): string {
  return `${normalizeStatement(subject)}\u001f`;
}

/**
 * The key of the slot a claim holds, one per (who, what): "me" and the Brain's own name are one person
 * (the owner the claim resolved to), and `lives_in`, `Lives In` and the "lives in" of a message are one
 * predicate (as people read it). Keyed by the raw subject and slug, a Brain held three current homes.
 */
export function slotKey(
  subject: string,
  predicate: string,
  owner: { state: string; entity?: string | null | undefined },
): string {
  const who = owner.state === 'self' && owner.entity ? owner.entity : subject;
  return `${slotPrefix(who)}${normalizeStatement(humanizePredicate(predicate))}`;
}
