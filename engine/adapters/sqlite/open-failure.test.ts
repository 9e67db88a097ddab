import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backupFailure } from './backup-store.ts';
import { storeOpenFailure } from './open-failure.ts';

const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('what a store that cannot be opened or backed up says', () => {
  it('a backup from a data dir on a read-only disk says to copy the dir first', () => {
    const e = sqlite('SQLITE_READONLY_DIRECTORY', 'attempt to write a readonly database');
    const told = backupFailure(e, '/media/old/mnemo', '/home/ana/b.mnemo') as Error;
    assert.match(told.message, /^no backup was written: cannot write in the data dir \/media\/old\/mnemo /);
    assert.match(told.message, /copy its data dir to a writable place and back up the copy$/);
    assert.equal(told.cause, e);
  });

  it("a full disk under a backup is the backup's disk, not the store's", () => {
    const told = backupFailure(sqlite('SQLITE_FULL', 'database or disk is full'), '/d', '/mnt/usb/b.mnemo');
    assert.match((told as Error).message, /^the disk holding \/mnt\/usb is full .*no backup was written/);
  });

  it('names the damaged store and the restore that mends it; other failures pass as they are', () => {
    const told = storeOpenFailure(sqlite('SQLITE_CORRUPT', 'database disk image is malformed'), '/d');
    assert.match(
      (told as Error).message,
      /^the Mnemo store \/d\/mnemo.db is damaged .*mnemo restore --from FILE --data-dir \/d/,
    );
    const other = new Error('something else');
    assert.equal(storeOpenFailure(other, '/d'), other);
  });
});
