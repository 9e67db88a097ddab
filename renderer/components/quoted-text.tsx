import { highlightQuotes } from '../highlight.ts';

/** A Record's text with the cited quotes marked, for screen readers too (<mark>). */
export function QuotedText({ text, quotes }: { text: string; quotes: readonly string[] }) {
  return (
    <p className="record-text">
      {highlightQuotes(text, quotes).map((s, i) =>
        s.mark ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>,
      )}
    </p>
  );
}
