import { chatSources, type SourceChat } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { quoted } from '../../errors/shown-value.ts';

/** A WhatsApp message's external id, as the importer writes it: `whatsapp:<chat>:<instant>:<sender>:<n>`. */
export interface WhatsappItemId {
  chat: string;
  /** As `toISOString` writes it, which neither the chat's name nor the sender's can hide. */
  instant: string;
  sender: string;
  /** Its ordinal among the same sender's messages of that instant. */
  n: string;
}

const whatsappIdPattern = /^whatsapp:(.*?):([+-]?\d{4,6}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z):(.*):(\d+)$/su;

/**
 * A WhatsApp export carries no ids, so the importer names each message (server/import/formats/
 * whatsapp.ts) by its chat, instant, sender and ordinal; null for an id not written so.
 */
export function whatsappItemId(externalId: string): WhatsappItemId | null {
  const m = whatsappIdPattern.exec(externalId);
  return m ? { chat: m[1]!, instant: m[2]!, sender: m[3]!, n: m[4]! } : null;
}

/**
 * The chat an imported message belongs to, read from its external id (whatsappItemId); null when its
 * source keeps no chats apart this way. So one chat can be told apart, and removed, without a column.
 * In NFC, as a name is typed: a file name read on macOS may be decomposed ("João" as "Joa\u0303o"), and
 * the chat listed so could not be removed by its name typed.
 */
export function chatOfItem(sourceName: string, externalId: string): string | null {
  if (sourceName !== 'whatsapp') return null;
  return whatsappItemId(externalId)?.chat.normalize('NFC') ?? null;
}

/** Whether an item of SOURCENAME, by its external id, is one of the chat named CHAT (either Unicode form). */
export function ofChat(sourceName: string, chat: string): (externalId: string) => boolean {
  const wanted = chat.normalize('NFC');
  return (externalId) => chatOfItem(sourceName, externalId) === wanted;
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
