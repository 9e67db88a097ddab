import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { promisify } from 'node:util';

const here = (name: string) => fileURLToPath(new URL(`./testing/${name}`, import.meta.url));

test('a server loads the MCP SDK with its first answered /mcp request, not at start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-mcp-loaded-'));
  try {
    // The process's own hooks (the TypeScript loader) first, then the recorder, which so runs first.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...process.execArgv, '--import', here('loaded-modules.mjs'), here('mcp-on-first-use-child.ts')],
      { env: { ...process.env, MNEMO_LOADED_LOG: join(dir, 'loaded.txt'), MNEMO_LOG: 'silent' } },
    );
    assert.deepEqual(JSON.parse(stdout), {
      atStart: false,
      refusedStatus: 401,
      afterRefused: false,
      answeredStatus: 200,
      initialized: true,
      afterAnswered: true,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
