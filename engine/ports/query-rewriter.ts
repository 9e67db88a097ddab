/**
 * A generative model that rewrites a thorough Context's question into a few search phrasings, for the
 * spec's "thorough adds a generative query rewrite". Mnemo ships no generative model (local-first,
 * nothing downloaded at run time): a deployment configures one (adapters/openai-compatible), and
 * without it thorough Traces say the rewrite did not run.
 */
export interface QueryRewriter {
  /** What the Trace names the model by, e.g. "openai-compatible:llama3.2". */
  readonly id: string;
  /**
   * Up to a handful of alternative phrasings or search queries for `question`, plain words only (the
   * caller searches them lexically). Rejects with a reason a person can read when the model's answer
   * cannot be used. `signal` aborts once the Context's budget leaves no time for it.
   */
  rewrite(question: string, options: { signal: AbortSignal }): Promise<string[]>;
}
