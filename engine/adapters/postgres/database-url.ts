/**
 * PostgreSQL connection strings as the CLI reads them and the log shows them. No pg here: the CLI checks
 * a URL before anything loads the driver.
 */

/**
 * Stands for the empty host of `postgres://user@/db?host=/socket/dir` while the URL is parsed: WHATWG
 * URL refuses a user with no host, though libpq and pg take that form for a Unix socket (pg parses it
 * with a stand-in host the same way). `.invalid` is never a real host name.
 */
const noHost = 'mnemo-no-host.invalid';

/** The usage every refusal repeats, in the CLI's words. */
const expected =
  'must be a postgres://user:password@host:port/database URL ' +
  '(or postgres://user:password@/database?host=/socket/dir for a Unix socket)';

/**
 * An `@` after the authority's end: a password holding `/`, `?` or `#` unencoded ("me:2024#s3cret@…"),
 * which WHATWG reads as a port and a fragment, query or path, where nothing would hide the rest of it.
 */
const atPastAuthority = /^[a-z]+:\/\/[^/?#@]*[/?#][^@]*@/i;

/** A connection string parsed, and whether its host was empty (a socket named by `?host=`). */
function parse(value: string): { url: URL; hostless: boolean } | null {
  // `postgres:db` and `postgres:/db` are URLs to WHATWG, but libpq reads no URL without the `//`.
  if (!/^postgres(ql)?:\/\//i.test(value)) return null;
  if (atPastAuthority.test(value)) return null;
  try {
    return { url: new URL(value), hostless: false };
  } catch {
    // Only a user followed at once by the path, as pg's own stand-in host allows; anything else is
    // malformed to pg too.
    const m = /^([a-z]+:\/\/[^/?#]*@)(\/.*)$/is.exec(value);
    if (!m) return null;
    try {
      return { url: new URL(`${m[1]}${noHost}${m[2]}`), hostless: true };
    } catch {
      return null;
    }
  }
}

/**
 * What is wrong with VALUE as `--database-url` or MNEMO_DATABASE_URL, or null. It never repeats the
 * value, which may hold a password.
 */
export function databaseUrlProblem(value: string): string | null {
  if (/^postgres(ql)?:\/\//i.test(value) && atPastAuthority.test(value))
    return `${expected}, its password percent-encoded (a "/", "?" or "#" in it as %2F, %3F, %23)`;
  const parsed = parse(value);
  if (!parsed) return expected;
  const host = parsed.url.searchParams.get('host');
  // A host name holds no slash: a relative path here is a socket directory mistyped, which pg would
  // look up in DNS and fail on at every connection as "getaddrinfo ENOTFOUND".
  if (host !== null && host.includes('/') && !host.startsWith('/'))
    return 'must have a ?host= that is a host name or the Unix socket directory as an absolute path (?host=/var/run/postgresql)';
  return null;
}

/** Query parameters of a connection string that hold a secret (libpq's names). */
const secretParams = ['password', 'sslpassword'];

/** The URL as it may be shown: without its password, whether in its user part or its query. */
export function shownUrl(value: string): string {
  const parsed = parse(value);
  if (!parsed) return 'the database URL (it is not a URL)';
  const { url: u, hostless } = parsed;
  if (u.password) u.password = '***';
  for (const name of secretParams) if (u.searchParams.has(name)) u.searchParams.set(name, '***');
  const shown = u.toString();
  if (!hostless) return shown;
  // The stand-in ends the authority (the path follows it at once): cut it there, not wherever a user
  // name might repeat it.
  const pathAt = shown.indexOf('/', u.protocol.length + 2);
  return shown.slice(0, pathAt - noHost.length) + shown.slice(pathAt);
}
