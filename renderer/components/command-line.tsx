/**
 * A command to type, as code: it wraps only between its words, so a flag is never split at its hyphen
 * ("--" on one line, "admin" on the next), which would be copied or retyped wrong.
 */
export function CommandLine({ children }: { children: string }) {
  const words = children.split(' ');
  return (
    <code className="command-line">
      {words.map((w, i) => (
        <span key={i}>
          {i > 0 ? ' ' : ''}
          <span className="command-word">{w}</span>
        </span>
      ))}
    </code>
  );
}
