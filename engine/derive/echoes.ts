import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository } from '../ports/index.ts';
import { sameStatementOf } from './admit-claims.ts';

/**
 * An agent's read-back of the person's own words ("Noted, you're allergic to penicillin." after "I'm
 * allergic to penicillin.", `echoes`) as the statement of hers it repeats: a citation of her current
 * Memory of those words, so forgetting what she said finds the read-back beside it, and her Profile
 * has no second Memory of the assistant's saying the same. Where she has no such Memory, the claim is
 * the agent's own statement it was.
 */
export async function withEchoesJoined(
  memories: Pick<MemoryRepository, 'sameStatement' | 'get'>,
  claims: readonly Claim[],
): Promise<Claim[]> {
  const out: Claim[] = [];
  for (const { echoes, ...claim } of claims) {
    const id = echoes === undefined ? null : await memories.sameStatement(sameStatementOf(echoes));
    const hers = id === null ? null : await memories.get(id);
    out.push(
      hers === null || echoes === undefined
        ? claim
        : { ...claim, statement: hers.statement, subject: echoes.subject, owner: echoes.owner },
    );
  }
  return out;
}
