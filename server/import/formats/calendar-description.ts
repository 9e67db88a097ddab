import { htmlToText } from './html-text.ts';
import { matchesOf } from '../../../engine/contract/matches-of.ts';

/** Google Calendar's fence around the conference details it writes into a description. */
const conferenceFence = /-::~[:~]{2,400}::-/gu;
const joinLine =
  /^(?:Join (?:with Google Meet|Zoom Meeting|Microsoft Teams Meeting)|Join by video|Meeting link)\b.*$/imu;
const url = /https?:\/\/\S+/u;
/**
 * A tag of the HTML calendars write: "<br>", "<b>", "</b>", "<a href=…". Not "score<b then" nor "Tom
 * <tom@acme.com>", which are text, and not an entity alone ("Budget &amp; plans").
 */
const htmlTag =
  /<\/(?:html|body|p|div|span|b|i|u|em|strong|a|ul|ol|li|h[1-6]|table|tr|td|th|font)>|<(?:br|hr|img)(?:\s[^<>]{0,300})?\/?>|<(?:html|body|p|div|span|b|i|u|em|strong|ul|ol|li|h[1-6]|table|tr|td|th|font)(?:\s[^<>]{0,300})?>|<a\s+href=/iu;

/**
 * An event's DESCRIPTION as a person reads it: HTML (Google Calendar writes `<b>`, `<br>`, links) as
 * text, and the block of conference details a calendar writes between its `-::~:~::-` fences ("Join with
 * Google Meet: …", phone numbers, PINs, "Please do not edit this section.") as its one join line.
 */
export function calendarDescription(raw: string): string {
  let text = raw;
  const fences = [...matchesOf(conferenceFence, text)];
  if (fences.length >= 2) {
    const first = fences[0]!;
    const last = fences[fences.length - 1]!;
    const block = text.slice(first.index + first[0].length, last.index);
    const join = joinLine.exec(block)?.[0] ?? url.exec(block)?.[0];
    text = `${text.slice(0, first.index)}${join ? `\n${join.trim()}\n` : ''}${text.slice(last.index + last[0].length)}`;
  }
  // Its line ends are lines too: a calendar mixes them with <br>, where HTML would read them as spaces.
  if (htmlTag.test(text)) text = htmlToText(text.replace(/\r?\n/gu, '<br>'));
  return text.replace(/\n{3,}/gu, '\n\n').trim();
}
