// Fault injection for start-up tests, loaded with `node --import ./test/support/slow-listen.mjs`:
// every listen() starts MNEMO_TEST_SLOW_LISTEN_MS later, as when the address waits on a slow DNS lookup.
// Start-up then stalls with the store open and the data dir locked, in a real process.
import { Server } from 'node:net';

const delayMs = Number(process.env.MNEMO_TEST_SLOW_LISTEN_MS ?? 0);
const listen = Server.prototype.listen;
Server.prototype.listen = function (...args) {
  setTimeout(() => listen.apply(this, args), delayMs);
  return this;
};
