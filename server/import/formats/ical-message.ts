import { errorMessage } from '../../../engine/index.ts';

/**
 * ical.js's message for a value it cannot read, as a person can act on it. Its "invalid date-time
 * value" quotes the value as it rearranged it ("garbage" as "garb-ag-eT::"), and "Could not extract
 * integer from ":0"" a fragment of it: either would send a person looking for text their file does not
 * hold, so both say what is wrong instead.
 */
export function icalValueError(e: unknown): string {
  return errorMessage(e)
    .replace(/^invalid (date-time|date) value: ".*"$/s, 'not a valid $1')
    .replace(/^Could not extract integer from ".*"$/s, 'not a valid date or time');
}
