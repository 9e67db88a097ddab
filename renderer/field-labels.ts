/**
 * The API names fields in its messages as it spells them ("q: must be at most 500 characters",
 * "since: must not be later than until"); a person knows them by the labels on the screen. Each
 * clause's leading field path, and a field named after "than", is put in the screen's words; names
 * the screen has no label for are left as they are.
 */
export function withFieldLabels(message: string, labels: Readonly<Record<string, string>>): string {
  const label = (name: string) => (Object.hasOwn(labels, name) ? labels[name] : undefined);
  return message
    .replace(/(^|; )([A-Za-z_][\w.[\]]*): /g, (all, lead: string, path: string) => {
      const l = label(path);
      return l === undefined ? all : `${lead}${l}: `;
    })
    .replace(/\bthan ([a-z_][\w.]*)\b/g, (all, name: string) => {
      const l = label(name);
      return l === undefined ? all : `than “${l}”`;
    });
}
