import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after } from 'node:test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `mnemo serve --port 0 ARGS` in a child process, as a person runs it, with ENV alone: its URL once it
 * prints its listening line (and, with --ui, the ui line after it), within a minute; killed when the
 * test file ends. A start that fails says why, from its stderr.
 */
export async function serveProcess(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['bin/mnemo.mjs', 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  after(() => child.kill('SIGKILL'));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!/listening on \S+\n/.test(stdout) && child.exitCode === null && Date.now() < deadline)
    await sleep(25);
  const url = /listening on (\S+)\n/.exec(stdout)?.[1];
  assert.ok(url, `serve did not start: ${stderr}`);
  // The ui: line follows the listening line on stderr.
  while (args.includes('--ui') && !/ui_token=\S+\n/.test(stderr) && Date.now() < deadline) await sleep(25);
  return { child, exited, url, stderr: () => stderr };
}
