/**
 * The ports the Fetch standard blocks ("bad port", fetch.spec.whatwg.org/#port-blocking): browsers
 * refuse to load a page from one (ERR_UNSAFE_PORT) and Node's fetch refuses to call one ("bad port"),
 * so a server there is out of the UI's and the typed client's reach.
 */
const refused = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** What to warn of when a server listens on PORT (the one it bound) and browsers and fetch refuse it; null for any other. */
export function refusedPortWarning(port: number): string | null {
  if (!refused.has(port)) return null;
  return (
    `port ${port} is one browsers and fetch refuse to reach (the Fetch standard's blocked ports): the app's ` +
    'UI and clients built on fetch cannot reach this server there; choose another with --port'
  );
}
