// Fault injection for start-up tests, loaded with `node --import ./test/support/slow-listen.mjs`:
// every listen() starts MNEMO_TEST_SLOW_LISTEN_MS later, as when the address waits on a slow DNS lookup,
// and says so on stderr, so a test knows start-up has reached it.
import { Server } from 'node:net';

const delayMs = Number(process.env.MNEMO_TEST_SLOW_LISTEN_MS ?? 0);
const listen = Server.prototype.listen;
Server.prototype.listen = function (...args) {
  process.stderr.write(`listen delayed by ${delayMs} ms\n`);
  setTimeout(() => listen.apply(this, args), delayMs);
  return this;
};
