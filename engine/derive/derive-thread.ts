import { parentPort } from 'node:worker_threads';
import { citableClaims } from '../core/derive/citable-claims.ts';
import { createRuleDeriver } from '../core/derive/rule-deriver.ts';
import type { Claim, DerivableRecord, DeriveContext } from '../core/derive/deriver.ts';
import { errorMessage } from '../core/shared/error-message.ts';

/** One Record to derive, with what the Brain held for it when it was read. */
export interface ThreadItem {
  input: DerivableRecord;
  ctx: DeriveContext;
}
/** Its claims as they can be cited, or why the rules threw on it (its job derives it in place then). */
export type ThreadResult = { claims: Claim[] } | { error: string };
export type ThreadRequest = { id: number; items: ThreadItem[] };
export type ThreadReply = { id: number; deriver: string; results: ThreadResult[] };

const port = parentPort!;
const rules = createRuleDeriver();

port.on('message', ({ id, items }: ThreadRequest) => {
  const results = items.map(({ input, ctx }): ThreadResult => {
    try {
      return { claims: citableClaims(rules, input, ctx) };
    } catch (e) {
      return { error: errorMessage(e) };
    }
  });
  port.postMessage({ id, deriver: rules.name, results } satisfies ThreadReply);
});
