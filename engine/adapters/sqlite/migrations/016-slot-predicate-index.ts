/**
 * The slot lane (retrieve/slot-lane.ts) asks for the Memories holding one predicate's slots ("lives in",
 * "works at") in a Brain. The slot key ends with the predicate as people read it (admit-claims.ts
 * `slotKey`: `lives_in`, `Lives In` and a message's "lives in" are one), so the index is on that tail.
 * Without it the lane read every slot Memory of the Brain: 12 ms a question in a Brain of 20,000 facts.
 */
export const slotPredicateIndex = {
  version: 16,
  name: 'slot-predicate-index',
  sql: `
CREATE INDEX memories_slot_predicate ON memories (brain_uid, substr(slot, instr(slot, char(31)) + 1))
  WHERE slot IS NOT NULL;
`,
};
