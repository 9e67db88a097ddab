import type { Claim, DerivableRecord, DeriveContext, Deriver } from './deriver.ts';

const blank = /[\s\p{Cc}]/u;

/** text without the whitespace and control characters (U+0000 and its kind) at its ends. */
function trimmedOfControls(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && blank.test(text[start]!)) start += 1;
  while (end > start && blank.test(text[end - 1]!)) end -= 1;
  return text.slice(start, end);
}

/**
 * The claim as it can be cited: its quote (still an exact substring of the Record) and statement
 * without control characters at their ends, or null when nothing else is left. SQLite's length() stops
 * at U+0000, so the schema's check that a quote is not empty refuses one that begins with it.
 */
function citable(claim: Claim): Claim | null {
  const quote = trimmedOfControls(claim.quote);
  const statement = trimmedOfControls(claim.statement);
  if (quote === '' || statement === '') return null;
  const cut = quote === claim.quote && statement === claim.statement ? claim : { ...claim, quote, statement };
  // An agent's restatement's own words stand as a statement too, cited by the same quote.
  if (claim.restated === undefined) return cut;
  const said = trimmedOfControls(claim.restated.statement);
  if (said === claim.restated.statement) return cut;
  return { ...cut, restated: { ...claim.restated, statement: said === '' ? quote : said } };
}

/**
 * What the deriver claims of a Record, as it can be cited. Every reader of a Record's claims (its first
 * derivation, re-derivation after a lost Record, the upgrade pass) goes through here, so a claim
 * compares with the statement stored from it.
 */
export function citableClaims(deriver: Deriver, record: DerivableRecord, ctx: DeriveContext): Claim[] {
  return deriver.derive(record, ctx).flatMap((c) => citable(c) ?? []);
}
