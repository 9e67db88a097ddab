import type { TimeZone } from '../core/retrieve/time-zone.ts';
import { createEntityLane } from './entity-lane.ts';
import type { Lane } from './lane.ts';
import { createRecencyLane } from './recency-lane.ts';
import { createSemanticLane } from './semantic-lane.ts';
import { createSlotLane } from './slot-lane.ts';
import { createTaskLane } from './task-lane.ts';
import { createTimeLane } from './time-lane.ts';
import { createTopicLane } from './topic-lane.ts';
import { createTurnLexicalLane } from './turn-lexical-lane.ts';
import { createWhenLane } from './when-lane.ts';

/** Every engine's retrieval lanes, in fusion order, then the caller's own. */
export function defaultLanes(clock: () => Date, zone: TimeZone, extra: readonly Lane[] = []): Lane[] {
  return [
    createTurnLexicalLane(),
    createEntityLane(),
    createTimeLane(clock, zone),
    createRecencyLane(clock, zone),
    createWhenLane(),
    createSlotLane(clock, zone),
    createTaskLane(clock),
    createTopicLane(),
    createSemanticLane(),
    ...extra,
  ];
}
