import { openAiCompatibleRewriter, type QueryRewriter } from '../engine/index.ts';
import type { ServerOptions } from './start-server.ts';

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
  const apiKey = env.MNEMO_REWRITE_KEY || undefined;
  // Names the endpoint and whether a key is sent, never the key.
  options.log?.(
    `query rewrite in thorough Contexts: model ${model} at ${url} (${apiKey ? 'with' : 'without'} MNEMO_REWRITE_KEY)`,
  );
  return openAiCompatibleRewriter({ url, model, apiKey });
}
