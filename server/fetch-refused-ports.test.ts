import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusedPortWarning } from './fetch-refused-ports.ts';

test("a port the Fetch standard blocks is warned of, and Node's own fetch refuses it", async () => {
  for (const port of [6000, 5060, 6667, 10080])
    assert.match(
      refusedPortWarning(port) ?? '',
      new RegExp(`^port ${port} is one browsers and fetch refuse`),
    );
  // What the warning says of fetch holds: it refuses before any connection is made.
  await assert.rejects(fetch('http://127.0.0.1:6000/'), (e: Error) =>
    /bad port/.test(String((e.cause as Error | undefined)?.message)),
  );
});

test('no other port is', () => {
  for (const port of [7821, 8080, 3000, 65535, 5059, 6001])
    assert.equal(refusedPortWarning(port), null, `${port}`);
});
