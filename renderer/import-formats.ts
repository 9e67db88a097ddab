import type { ImportFormat } from '../engine/contract/index.ts';

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
