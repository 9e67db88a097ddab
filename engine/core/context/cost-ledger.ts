import type { Cost } from '../../contract/index.ts';

/**
 * What one Context request consumed, charged where it happens (lanes, embedders, assembly) and read
 * once at the end, so the response's cost is measured, never a constant. processing_units: one unit
 * per 1,000 candidate rows ranked plus one per 1,000 tokens of evidence assembled.
 */
export interface CostLedger {
  charge(kind: 'generative' | 'embedding' | 'processing', amount?: number): void;
  snapshot(): Cost;
}

export function createCostLedger(): CostLedger {
  let generative = 0;
  let embedding = 0;
  let processing = 0;
  return {
    charge(kind, amount = 1) {
      if (kind === 'generative') generative += amount;
      else if (kind === 'embedding') embedding += amount;
      else processing += amount;
    },
    snapshot: () => ({
      generative_calls: generative,
      embedding_calls: embedding,
      model_calls_total: generative + embedding,
      processing_units: Math.round(processing * 1000) / 1000,
    }),
  };
}
