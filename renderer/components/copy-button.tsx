import { useState } from 'react';

/**
 * Copies, and says so (or says it could not: there is no clipboard on a page not served from this
 * computer or over https, e.g. opened by a LAN address). `what` names the text in that refusal.
 */
export function CopyButton({ text, what, label = 'Copy' }: { text: string; what: string; label?: string }) {
  const [said, setSaid] = useState<string | null>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setSaid('Copied.');
    } catch {
      setSaid(`Could not copy here: select ${what} and copy it yourself.`);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="small">
        {said}
      </span>
    </>
  );
}
