import { describe } from 'node:test';
import type { ServerFactory } from './harness.ts';
import { brainAndAuthChecks } from './suite-brains-auth.ts';
import { contextChecks } from './suite-context.ts';
import { deltaRemovalChecks } from './suite-delta-removals.ts';
import { guaranteeChecks } from './suite-guarantees.ts';
import { memoryAndObjectChecks } from './suite-memories-objects.ts';
import { recordChecks, type EngineTraits } from './suite-records.ts';
import { sourceChecks } from './suite-sources.ts';

/** The parts of the contract suite, each a file of checks. */
export type ContractSection =
  'brains' | 'records' | 'memories' | 'removals' | 'context' | 'sources' | 'guarantees';

/**
 * The contract suite: every endpoint's success path and every error code an engine can produce,
 * over a real HTTP socket on 127.0.0.1. Each engine runs the very same checks; `sections` runs only
 * some (an engine run a second time for what its first run could not hold).
 */
export function runContractSuite(
  traits: EngineTraits,
  factory: ServerFactory,
  sections?: readonly ContractSection[],
): void {
  const on = (section: ContractSection) => sections === undefined || sections.includes(section);
  const parts = sections === undefined ? '' : `: ${sections.join(', ')}`;
  describe(`contract (${traits.name} engine${parts})`, () => {
    if (on('brains')) brainAndAuthChecks(factory);
    if (on('records')) recordChecks(factory, traits);
    if (on('memories')) memoryAndObjectChecks(factory, traits);
    if (on('removals')) deltaRemovalChecks(factory, traits);
    if (on('context')) contextChecks(factory, traits);
    if (on('sources')) sourceChecks(factory);
    if (on('guarantees')) guaranteeChecks(factory, traits);
  });
}
