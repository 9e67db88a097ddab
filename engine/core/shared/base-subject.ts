/**
 * The reply and forward leads mail clients put before a subject, in the languages that write them
 * differently: Re, Fw(d) (English); AW, WG (German); SV, VS, VB (Nordic); Antw, Doorst (Dutch); Odg
 * (Croatian, Serbian); Odp, PD (Polish); TR (French); RV (Spanish); Res, Enc (Portuguese); Rif
 * (Italian); YNT (Turkish); 回复, 回覆, 答复, 转发, 轉寄 (Chinese). Two letters or more: "R:" would also be
 * a subject's own words.
 */
const lead = String.raw`(?:re|fwd?|aw|wg|sv|vs|vb|antw|doorst|odg|odp|pd|tr|rv|res|enc|rif|ynt|回复|回覆|答复|转发|轉寄)`;
const leads = new RegExp(String.raw`^(?:\s*${lead}(?:\[\d+\]|\(\d+\))?\s*[:：])+`, 'iu');

/** A mail's subject without its reply and forward leads (`Re:`, `AW:`, `RE[2]:`), so a thread keeps one name. */
export function baseSubject(subject: string): string {
  return subject.replace(leads, '').trim();
}
