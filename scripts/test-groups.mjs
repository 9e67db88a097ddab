// Small test files share a process: a bundled file's process costs ~0.3 CPU s to start and load its
// chunks before its first test, more than many files spend testing, and CPU is what a 2-core CI run
// is short of. Each group is one entry module that imports its files' bundles one after another, so
// node:test runs their tests in that process in order, each still named, timed and located as its own.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What a file may not do to share a process: change what the process is (its environment, globals,
 * handlers, working directory, argv) or mock modules and methods for good, since the next file would
 * run under it; and hooks at its top level, which would run for the group's other files too.
 */
const changesItsProcess = [
  /process\.env(?:\.\w+|\[[^\]]+\])\s*(?:(?:\?\?|\|\||&&|[-+*/%|&^])?=(?!=)|\+\+|--)/,
  /\bdelete\s+process\.env\b/,
  /\bprocess\.(?:on|once|off|addListener|removeListener|removeAllListeners|exit|chdir|umask|setUncaughtExceptionCaptureCallback|emitWarning)\(/,
  /\bprocess\.(?:exitCode|title)\s*=/,
  /\bprocess\.argv\b/,
  /(?<![.\w])mock\.(?:timers|method|module|property|getter|setter)\b/,
  /\bglobalThis\.\w+\s*=(?!=)|\bObject\.defineProperty\(\s*globalThis\b/,
  /\b(?:Date|Math|JSON|console|Promise|performance)\.\w+\s*=(?!=)/,
  /\b(?:before|beforeEach|afterEach)\(/,
  // Said by a file that tests what its process has loaded (server/warm-up.test.ts).
  /^\/\/ One file, one process\b/m,
];

export const mayShareProcess = (source) => !changesItsProcess.some((pattern) => pattern.test(source));

/**
 * Groups the bundled files that ran in under `maxSeconds` last time (a file without a timing yet runs
 * alone first) into groups of about `groupSeconds` each, in the order given; returns the groups and the
 * files that run alone.
 */
export function groupSmallFiles({ files, sources, runAs, known, maxSeconds = 8, groupSeconds = 30 }) {
  const groups = [];
  const alone = [];
  let current = null;
  files.forEach((file, i) => {
    const seconds = known[file];
    if (!runAs.has(file) || seconds === undefined || seconds > maxSeconds || !mayShareProcess(sources[i])) {
      alone.push(file);
      return;
    }
    if (!current || current.seconds + seconds > groupSeconds) {
      current = { members: [], seconds: 0 };
      groups.push(current);
    }
    current.members.push(file);
    current.seconds += seconds;
  });
  // A group of one is a file alone.
  for (const g of groups.filter((g) => g.members.length === 1)) alone.push(g.members[0]);
  return { groups: groups.filter((g) => g.members.length > 1), alone };
}

/**
 * Writes each group's entry module into `dir` (group-1.test.mjs, ...). A file whose bundle fails to
 * load is a failing test named after it, and the group's other files still run.
 */
export function writeGroups(groups, runAs, dir) {
  mkdirSync(dir, { recursive: true });
  return groups.map((group, i) => {
    const path = join(dir, `group-${i + 1}.test.mjs`);
    const members = group.members.map((f) => [f, pathToFileURL(resolve(runAs.get(f))).href]);
    writeFileSync(
      path,
      [
        "import { test } from 'node:test';",
        `for (const [file, url] of ${JSON.stringify(members, null, 1)}) {`,
        '  try {',
        '    await import(url);',
        '  } catch (error) {',
        '    test(`${file} loads`, () => {',
        '      throw error;',
        '    });',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    return { path, members: group.members, seconds: group.seconds };
  });
}
