import { openAiCompatibleRewriter, type QueryRewriter } from '../engine/index.ts';
import { plainHttpProblem } from '../engine/contract/index.ts';
import { limitedFetch, type FetchLimits } from './client/limited-fetch.ts';
import type { ServerOptions } from './start-server.ts';

/**
 * Bounds on one rewrite request. The Context waits for it 5 s at most (engine/retrieve) and then aborts
 * it; these hold even so: an answer of a handful of phrasings is well under 64 KiB (the adapter refuses
 * more than 16,000 characters), so reading stops there rather than at whatever the endpoint sends.
 */
const rewriteLimits: FetchLimits = {
  idleMs: 10_000,
  totalMs: 15_000,
  sendBytesPerSecond: 64 * 1024,
  maxResponseBytes: 64 * 1024,
};

/**
 * What is wrong with URL as --rewrite-url, or null. The key (MNEMO_REWRITE_KEY) and every thorough
 * question go there: the rule a pairing's remote and the CLI's server follow (plainHttpProblem).
 */
export function rewriteUrlProblem(url: string): string | null {
  if (!URL.canParse(url)) return 'must be an absolute http:// or https:// URL';
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an absolute http:// or https:// URL';
  if (u.username || u.password || u.search || u.hash) return 'must have no user, query or fragment';
  return plainHttpProblem(u);
}

/**
 * The generative model of thorough Contexts' query rewrite: an OpenAI-compatible endpoint
 * (--rewrite-url, --rewrite-model), its key from MNEMO_REWRITE_KEY (an environment variable, never a
 * flag: a flag shows in `ps` and shell history). Null when neither flag is given.
 */
export function queryRewriterChoice(
  options: Pick<ServerOptions, 'rewriteUrl' | 'rewriteModel' | 'log'>,
  env: NodeJS.ProcessEnv = process.env,
): QueryRewriter | null {
  const { rewriteUrl: url, rewriteModel: model } = options;
  if (url === undefined && model === undefined) return null;
  if (!url || !model)
    throw new Error('the query rewrite needs both --rewrite-url URL and --rewrite-model NAME');
  const problem = rewriteUrlProblem(url);
  if (problem !== null) throw new Error(`--rewrite-url ${url}: ${problem}`);
  const apiKey = env.MNEMO_REWRITE_KEY || undefined;
  // Names the endpoint and whether a key is sent, never the key.
  options.log?.(
    `query rewrite in thorough Contexts: model ${model} at ${url} (${apiKey ? 'with' : 'without'} MNEMO_REWRITE_KEY)`,
  );
  // The adapter refuses a redirect itself, in words about the rewrite.
  const fetch = limitedFetch((i, init) => globalThis.fetch(i, init), rewriteLimits, { redirects: 'answer' });
  return openAiCompatibleRewriter({ url, model, apiKey, fetch });
}
