import type { RecordPage } from '../../engine/contract/index.ts';
import type { ImportItem } from './import-item.ts';
import { recordPages, type PageQuery } from './record-pages.ts';

/** The external ids of the Brain's Records of SOURCE that occurred at AT (an ISO instant). */
export type StoredIdsAt = (source: string, at: string) => Promise<ReadonlySet<string>>;

/** The query a StoredIdsAt reads with, page by page (listRecords of the API client or the engine). */
export interface IdsAtQuery extends PageQuery {
  source: string;
  since: string;
  until: string;
}

/**
 * StoredIdsAt over a listRecords of the caller's: every page of the Records of that source at that
 * instant (a handful: an item's own time narrows them). A page read as null (the caller may not read
 * Records) holds nothing.
 */
export function storedIdsAt(listPage: (q: IdsAtQuery) => Promise<RecordPage | null>): StoredIdsAt {
  return async (source, at) => {
    const ids = new Set<string>();
    for await (const page of recordPages(listPage, { source, since: at, until: at }))
      for (const r of page?.data ?? []) if (r.source.external_id !== null) ids.add(r.source.external_id);
    return ids;
  };
}

/**
 * ITEMS, each that carries formerExternalIds written under the one of them the Brain already holds,
 * when it holds none under the item's own id: an item imported before its naming changed (a mail
 * without a Message-ID, once named by its bytes as they were, CRLF included) replays instead of being
 * stored a second time. Looked up by the item's time, so only for items that have one and that carry
 * former ids (a few: such mails are rare); an item without either keeps its own id. `idsAt` undefined
 * (a Brain the import creates) holds nothing.
 */
export async function* underFormerIds(
  items: AsyncIterable<ImportItem> | Iterable<ImportItem>,
  idsAt: StoredIdsAt | undefined,
): AsyncGenerator<ImportItem> {
  for await (const item of items) {
    const former = item.type === 'record' ? item.formerExternalIds : undefined;
    if (idsAt === undefined || item.type !== 'record' || !former?.length || !item.body.occurred_at) {
      yield item;
      continue;
    }
    const stored = await idsAt(item.body.source.name, item.body.occurred_at);
    const held = stored.has(item.body.source.external_id) ? undefined : former.find((id) => stored.has(id));
    yield held === undefined
      ? item
      : { ...item, body: { ...item.body, source: { ...item.body.source, external_id: held } } };
  }
}
