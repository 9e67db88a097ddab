// The renderer's batched read of Records: reads asked for in one turn go out as one listRecords by ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxListedIds, type MnemoRecord } from '../../engine/contract/index.ts';
import { recordBatcher } from '../../renderer/api/record-batch.ts';
import { MnemoApiError, isMnemoApiError } from '../../server/client/index.ts';

const record = (id: string) => ({ id }) as MnemoRecord;

test('reads asked for in one turn are one request; an id the answer leaves out is record_not_found', async () => {
  const asked: string[][] = [];
  const read = recordBatcher(
    async (ids) => {
      asked.push(ids);
      return ids.filter((id) => id !== 'rec_gone').map(record);
    },
    () => assert.fail('no read alone'),
  );
  const [a, b, again, gone] = await Promise.allSettled([
    read('rec_a'),
    read('rec_b'),
    read('rec_a'),
    read('rec_gone'),
  ]);
  assert.deepEqual(asked, [['rec_a', 'rec_b', 'rec_gone']], 'one request, each id once');
  assert.equal(a.status === 'fulfilled' && a.value.id, 'rec_a');
  assert.equal(b.status === 'fulfilled' && b.value.id, 'rec_b');
  assert.equal(again.status === 'fulfilled' && again.value.id, 'rec_a');
  assert.ok(gone.status === 'rejected' && isMnemoApiError(gone.reason));
  assert.equal(gone.reason.code, 'record_not_found');
  // A later turn is a request of its own.
  await read('rec_c');
  assert.deepEqual(asked.at(-1), ['rec_c']);
});

test('more ids than one request takes are split; a server that refuses ids is read one Record at a time', async () => {
  const sizes: number[] = [];
  const many = recordBatcher(
    async (ids) => {
      sizes.push(ids.length);
      return ids.map(record);
    },
    () => assert.fail('no read alone'),
  );
  await Promise.all(Array.from({ length: maxListedIds + 5 }, (_, i) => many(`rec_${i}`)));
  assert.deepEqual(sizes, [maxListedIds, 5]);

  const alone: string[] = [];
  const old = recordBatcher(
    () =>
      Promise.reject(
        new MnemoApiError(400, {
          type: 'invalid_request',
          code: 'invalid_request_body',
          message: 'ids: unknown',
        }),
      ),
    async (id) => {
      alone.push(id);
      return record(id);
    },
  );
  assert.deepEqual(
    (await Promise.all([old('rec_a'), old('rec_b')])).map((r) => r.id),
    ['rec_a', 'rec_b'],
  );
  assert.deepEqual(alone, ['rec_a', 'rec_b']);
  // Any other failure is each read's failure, as it was.
  const down = recordBatcher(
    () => Promise.reject(new MnemoApiError(503, { type: 'internal', code: 'unavailable', message: 'down' })),
    () => assert.fail('no read alone'),
  );
  await assert.rejects(down('rec_a'), { code: 'unavailable' });
});
