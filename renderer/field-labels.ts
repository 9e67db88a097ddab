/** A field as the screen shows it: its label, and for a menu the words of each choice by its value. */
export type FieldLabel = string | { label: string; choices: Readonly<Record<string, string>> };

/**
 * The API names fields in its messages as it spells them ("q: must be at most 500 characters",
 * "since: must not be later than until"); a person knows them by the labels on the screen. Each
 * clause's leading field path, and a field named after "than", is put in the screen's words; names
 * the screen has no label for are left as they are. A menu's values in its clause ("must be one of
 * "active", "all"") are said as its choices read, as an address can name a value the menu lacks.
 */
export function withFieldLabels(message: string, labels: Readonly<Record<string, FieldLabel>>): string {
  const field = (name: string) => (Object.hasOwn(labels, name) ? labels[name] : undefined);
  const label = (name: string) => {
    const f = field(name);
    return typeof f === 'object' ? f.label : f;
  };
  return message
    .split('; ')
    .map((clause) =>
      clause.replace(/^([A-Za-z_][\w.[\]]*): (.*)$/s, (all, path: string, rest: string) => {
        const f = field(path);
        if (f === undefined) return all;
        if (typeof f === 'string') return `${f}: ${rest}`;
        const said = rest.replace(/"((?:[^"\\]|\\.)*)"/g, (quoted, value: string) =>
          Object.hasOwn(f.choices, value) ? `“${f.choices[value]}”` : quoted,
        );
        return `${f.label}: ${said}`;
      }),
    )
    .join('; ')
    .replace(/\bthan ([a-z_][\w.]*)\b/g, (all, name: string) => {
      const l = label(name);
      return l === undefined ? all : `than “${l}”`;
    });
}
