import { useMemo, useState } from 'react';
import { quoteExcerpt } from '../excerpt.ts';
import { QuotedText } from './quoted-text.tsx';

/**
 * A cited Record shown as its quote in context: a few hundred characters either side, with the
 * whole Record one press away. Rendering every word of a long document for one quote made a Memory's
 * page many screens tall (and a megabyte note slow to show at all).
 */
export function QuoteInContext({ text, quote }: { text: string; quote: string }) {
  const [whole, setWhole] = useState(false);
  const excerpt = useMemo(() => quoteExcerpt(text, quote), [text, quote]);
  if (!excerpt.cutBefore && !excerpt.cutAfter) return <QuotedText text={text} quotes={[quote]} />;
  return (
    <>
      {whole ? (
        <QuotedText text={text} quotes={[quote]} />
      ) : (
        <p className="record-text" dir="auto">
          {excerpt.cutBefore ? '… ' : null}
          {excerpt.segments.map((s, i) =>
            s.mark ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>,
          )}
          {excerpt.cutAfter ? ' …' : null}
        </p>
      )}
      <button type="button" className="link-button" aria-expanded={whole} onClick={() => setWhole(!whole)}>
        {whole
          ? 'Show only the part around the quote'
          : `Show the whole Record (${text.length.toLocaleString()} characters)`}
      </button>
    </>
  );
}
