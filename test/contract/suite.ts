import { describe } from 'node:test';
import type { ServerFactory } from './harness.ts';
import { brainAndAuthChecks } from './suite-brains-auth.ts';
import { contextChecks } from './suite-context.ts';
import { deltaRemovalChecks } from './suite-delta-removals.ts';
import { guaranteeChecks } from './suite-guarantees.ts';
import { memoryAndObjectChecks } from './suite-memories-objects.ts';
import { recordChecks, type EngineTraits } from './suite-records.ts';
import { sourceChecks } from './suite-sources.ts';

/**
 * The contract suite: every endpoint's success path and every error code an engine can produce,
 * over a real HTTP socket on 127.0.0.1. Each engine runs the very same checks.
 */
export function runContractSuite(traits: EngineTraits, factory: ServerFactory): void {
  describe(`contract (${traits.name} engine)`, () => {
    brainAndAuthChecks(factory);
    recordChecks(factory, traits);
    memoryAndObjectChecks(factory, traits);
    deltaRemovalChecks(factory, traits);
    contextChecks(factory, traits);
    sourceChecks(factory);
    guaranteeChecks(factory, traits);
  });
}
