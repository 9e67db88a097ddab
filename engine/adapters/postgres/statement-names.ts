/**
 * Names for statements, so each connection parses and plans a statement once and then only binds and
 * runs it (PostgreSQL's prepared statements, which pg keeps per connection by name). Unnamed, the
 * server parsed and planned every statement on every call: measured on PostgreSQL 15 with
 * `bench scale --engine postgres --records 10000`, ~6 ms of planning a fast Context (the lexical
 * lane's ranking 1.5 ms, the passages' rows 1.5, the Trace's write 0.65, ...) against ~20 ms of
 * execution. After five runs PostgreSQL may keep one generic plan for a statement where it costs no
 * more than the plans made for each call's values.
 *
 * A statement's text is named on first use, up to `max` texts a process (each connection holds the
 * ones it ran until it closes): a statement built with a varying shape, beyond the cap, runs unnamed
 * as before rather than growing every connection's memory without bound.
 */
export function statementNames(max = 256): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    const known = names.get(sql);
    if (known !== undefined || names.size >= max) return known;
    const name = `mnemo_${names.size}`;
    names.set(sql, name);
    return name;
  };
}
