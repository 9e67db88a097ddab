import type { ImportFormat } from '../engine/contract/index.ts';
import { plural } from './format.ts';

/**
 * How the UI names each import format: as a choice in the import form, as a phrase in the summary
 * ("read as a ChatGPT export"), and as the source its Records list under (each importer names its
 * source after its format).
 */
export const importFormatText: Record<ImportFormat, { choice: string; phrase: string; source: string }> = {
  markdown: {
    choice: 'Markdown notes (.md files or a folder of them)',
    phrase: 'Markdown notes',
    source: 'Markdown notes',
  },
  obsidian: { choice: 'Obsidian vault (its folder)', phrase: 'an Obsidian vault', source: 'Obsidian vault' },
  chatgpt: {
    choice: 'ChatGPT export (conversations.json)',
    phrase: 'a ChatGPT export',
    source: 'ChatGPT conversations',
  },
  claude: {
    choice: 'Claude export (conversations.json)',
    phrase: 'a Claude export',
    source: 'Claude conversations',
  },
  mbox: { choice: 'Mail (an mbox file)', phrase: 'mail', source: 'Mail' },
  whatsapp: {
    choice: 'WhatsApp chat (the exported .txt)',
    phrase: 'a WhatsApp chat',
    source: 'WhatsApp chats',
  },
  slack: { choice: 'Slack export (its folder)', phrase: 'a Slack export', source: 'Slack messages' },
  ics: { choice: 'Calendar (.ics)', phrase: 'a calendar', source: 'Calendar events' },
  vcf: { choice: 'Contacts (.vcf)', phrase: 'contacts', source: 'Contacts' },
};

/** An importer's source as a person knows it (`mbox` is "Mail"); any other source name as it is. */
export const sourceTitle = (name: string): string =>
  Object.hasOwn(importFormatText, name) ? importFormatText[name as ImportFormat].source : name;

/**
 * What one item of an importer's source is, where a person would count them so: a mail, a chat's
 * message, a note (a note past a Record's size is an item per part, as rare as a note of a million
 * characters). Elsewhere an item is no one thing: a calendar's event and its description are two, and
 * a contact is an item per field.
 */
const itemNoun: Partial<Record<ImportFormat, [string, string]>> = {
  markdown: ['note', 'notes'],
  obsidian: ['note', 'notes'],
  mbox: ['mail', 'mails'],
  whatsapp: ['message', 'messages'],
  slack: ['message', 'messages'],
};

/** How many items a source holds, named as a person knows them ("312 mails"), else "items". */
export const sourceItems = (name: string, items: number): string => {
  const [one, many] = (Object.hasOwn(itemNoun, name) ? itemNoun[name as ImportFormat] : undefined) ?? [
    'item',
    'items',
  ];
  return plural(items, one, many);
};
