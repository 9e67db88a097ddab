/** A mail's subject without its `Re:`/`Fwd:` prefixes (`AW:`, `SV:`, `WG:`, `RE[2]:`), so a thread keeps one name. */
export function baseSubject(subject: string): string {
  return subject.replace(/^(?:\s*(?:re|fw|fwd|aw|sv|wg)(?:\[\d+\])?\s*:)+/i, '').trim();
}
