import { useState } from 'react';

/**
 * A text that may be a whole document: its first `limit` characters (cut at a space where one is near)
 * with "Show all", so one long note does not fill several screens of a list.
 */
export function ClampedText({ text, limit = 600 }: { text: string; limit?: number }) {
  const [open, setOpen] = useState(false);
  if (text.length <= limit) return <>{text}</>;
  const space = text.lastIndexOf(' ', limit);
  const cut = space > limit * 0.8 ? space : limit;
  return (
    <>
      {open ? text : `${text.slice(0, cut)}…`}{' '}
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
      </button>
    </>
  );
}
