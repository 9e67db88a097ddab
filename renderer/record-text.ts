import { selfSpeakerNames, type TypedContent } from '../engine/contract/index.ts';

/** Whether a speaker is named by one of the engine's words for the Brain's own person ("self", "user"). */
export const isSelfSpeaker = (speaker: string) => selfSpeakerNames.has(speaker.trim().toLowerCase());

/** A speaker as a person reads it: the Brain's own person is "You", not "self". */
export const speakerLabel = (speaker: string) => (isSelfSpeaker(speaker) ? 'You' : speaker);

/** One line of plain words for a Record's content, whatever its kind. */
export function recordSummary(content: TypedContent): string {
  switch (content.kind) {
    case 'message':
      return content.speaker ? `${speakerLabel(content.speaker)}: ${content.text}` : content.text;
    case 'document':
      return content.title ? `${content.title} — ${content.text}` : content.text;
    case 'event':
      return [content.title, content.place ? `at ${content.place}` : ''].filter(Boolean).join(' ');
    case 'fact':
      return `${content.subject} ${content.predicate}: ${String(content.value)}`;
    case 'correction':
      return (
        (content.statement !== undefined ? `Correction: ${content.statement}` : 'Withdrawal of a Memory') +
        (content.reason ? ` (why: ${content.reason})` : '')
      );
  }
}

export const kindLabels: Record<TypedContent['kind'], string> = {
  message: 'Message',
  document: 'Document',
  event: 'Event',
  fact: 'Fact',
  correction: 'Correction',
};

export const visibilityLabels = {
  shareable: 'Shareable',
  redacted_summary: 'Summary only',
  local_only: 'This device only',
} as const;
