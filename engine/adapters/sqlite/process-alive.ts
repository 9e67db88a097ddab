/**
 * Whether a process of this machine with that id exists (under any user). A module of its own: the
 * backup drafts' check runs in commands that open no store.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
