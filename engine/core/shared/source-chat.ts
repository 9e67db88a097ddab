import { chatSources, type SourceChat } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { quoted } from '../../errors/shown-value.ts';

/**
 * The chat an imported message belongs to, read from its external id; null when its source keeps no
 * chats apart this way. A WhatsApp export carries no ids, so the importer names each message
 * `whatsapp:<chat>:<instant>:<sender>:<n>` (server/import/formats/whatsapp.ts), the instant as
 * `toISOString` writes it: the chat is what comes before the first `:<instant>:`, which a chat's name
 * (a file or folder name) does not hold. So one chat can be told apart, and removed, without a column.
 */
export function chatOfItem(sourceName: string, externalId: string): string | null {
  if (sourceName !== 'whatsapp') return null;
  const m = /^whatsapp:(.*?):[+-]?\d{4,6}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z:/su.exec(externalId);
  // In NFC, as a name is typed: a file name read on macOS may be decomposed ("João" as "Joa\u0303o"),
  // and the chat listed so could not be removed by its name typed.
  return m ? m[1]!.normalize('NFC') : null;
}

/** Is the item of EXTERNALID one of the chat named CHAT (in either Unicode form)? */
export function isOfChat(sourceName: string, externalId: string, chat: string): boolean {
  return chatOfItem(sourceName, externalId) === chat.normalize('NFC');
}

/** SourceChatList's entries for the distinct external ids of a source. */
export function chatsOf(sourceName: string, externalIds: Iterable<string>): SourceChat[] {
  const counts = new Map<string, number>();
  for (const id of externalIds) {
    const chat = chatOfItem(sourceName, id);
    if (chat !== null) counts.set(chat, (counts.get(chat) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, messages]) => ({ object: 'source_chat', source: sourceName, name, messages }));
}

/** No Record of SOURCENAME is of CHAT. */
export function chatNotFound(sourceName: string, chat: string): MnemoError {
  return new MnemoError(
    'source_not_found',
    chatSources.includes(sourceName)
      ? `chat: no Record of source ${quoted(sourceName)} in this Brain is of the chat ${quoted(chat)}`
      : `source_name: ${quoted(sourceName)} keeps no chats apart (only ${chatSources.join(', ')} does)`,
  );
}
