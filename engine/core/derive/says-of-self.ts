import type { SelfEntity } from '../../contract/index.ts';
import { foldName } from './resolve-owner.ts';

/**
 * Whether an agent's sentence opens with the person's name as its subject, a lead-in aside
 * ("Reminder: Lucía prefers window seats.", "Lucía's flight is at 9."): her whole name or her first.
 * Not her name called ("Lucía, you should try it") nor another word after it in capitals.
 */
export function saysOfSelf(s: string, self: SelfEntity): boolean {
  if (self.type !== 'person') return false;
  const bare = s.replace(/^[\p{L} ]{1,20}:\s+/u, '');
  const whole = self.name.trim();
  const first = whole.split(/\s+/u)[0]!;
  return [whole, first].some(
    (n) =>
      n !== '' &&
      bare.length > n.length &&
      foldName(bare.slice(0, n.length)) === foldName(n) &&
      // Her name then what she is, has, does or did ("prefers", "is", "'s flight", "moved", "said"):
      // "Hope this helps!" or "Will be done by Friday" open with a word that is also a name.
      /^(?:['’]s\s+\p{Ll}|\s+(?:is|was|has|had|can|will|would|does|did|doesn['’]t|didn['’]t|isn['’]t|said|went|got|told|left|met|took|made|bought|came|became|began|found|gave|kept|lost|paid|sent|spent|won|wrote|flew|sold|(?!(?:this|his|its|yes|less|plus|us|as|thus|unless|always|perhaps)(?![\p{L}\p{N}]))\p{Ll}+s|\p{Ll}{2,}ed)(?![\p{L}\p{N}]))/u.test(
        bare.slice(n.length),
      ),
  );
}
