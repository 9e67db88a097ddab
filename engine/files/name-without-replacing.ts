import { existsSync, linkSync, renameSync, unlinkSync } from 'node:fs';

/**
 * Gives `draft` the name `out` unless a file of that name exists (then throws `exists`'s message): a hard
 * link fails rather than replace one that appeared meanwhile; where the file system has no hard links
 * (FAT, exFAT, some network shares) a rename after a last look.
 */
export function nameWithoutReplacing(draft: string, out: string, exists: string): void {
  try {
    linkSync(draft, out);
    unlinkSync(draft);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Error(exists);
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EINVAL'].includes(code ?? '')) throw e;
    if (existsSync(out)) throw new Error(exists);
    renameSync(draft, out);
  }
}
