import { MnemoError } from '../../engine/errors/mnemo-error.ts';

/**
 * The bytes the uploads of one server may hold unpacked on its disk at once. Each archive is bounded
 * (1 GiB unpacked), but uploads in flight together were not: a few small zip bombs sent at once, by
 * any key that may write Records (a hosted server's tenants too), could fill the disk before one file
 * was read. An upload takes what each entry says it holds (sizes the unzipper checks as it reads)
 * before writing it, and gives all of it back when its temporary copy is removed.
 */
export interface UnpackBudget {
  /** A lease for one upload; `release` returns everything it took, once. */
  lease(): { take(bytes: number): void; release(): void };
  /** Bytes held by leases now. */
  readonly held: number;
}

/** How long a refused upload is told to wait: long enough for an import of a large archive to end. */
const retryAfterSeconds = 30;

export function createUnpackBudget(maxBytes: number): UnpackBudget {
  let held = 0;
  return {
    get held() {
      return held;
    },
    lease() {
      let mine = 0;
      let released = false;
      return {
        take(bytes) {
          if (released) throw new Error('unpack budget: the lease was released');
          // Alone past the budget (several archives in one upload): waiting frees nothing, so a 429
          // would have a client send it again for ever.
          if (mine + bytes > maxBytes)
            throw new MnemoError(
              'invalid_request_body',
              `files: this upload's archives would hold more than the ${Math.round(maxBytes / 1024 ** 3)} GiB ` +
                'unpacked that uploads may hold at once: send them in separate uploads, or import the folder ' +
                'with mnemo import',
            );
          if (held + bytes > maxBytes)
            throw new MnemoError(
              'too_many_requests',
              `files: other imports on this server hold ${Math.ceil((held - mine) / 1024 ** 2)} MiB unpacked, and this ` +
                `upload would pass the ${Math.round(maxBytes / 1024 ** 3)} GiB they may hold at once: send it ` +
                `again in ${retryAfterSeconds} s, or import the folder with mnemo import`,
              { retry_after_seconds: retryAfterSeconds },
            );
          held += bytes;
          mine += bytes;
        },
        release() {
          if (released) return;
          released = true;
          held -= mine;
          mine = 0;
        },
      };
    },
  };
}

/** The one budget of this process's server: two archives at the 1 GiB limit at once. */
export const uploadUnpackBudget = createUnpackBudget(2 * 1024 ** 3);
