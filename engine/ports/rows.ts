import type { Kind, MnemoRecord, Visibility } from '../contract/index.ts';

/*
 * The rows the ports carry: plain data, as the SQLite tables hold it today, so an adapter maps its own
 * storage to these and nothing above the ports sees a column it did not ask for. Instants are kept
 * twice where the rules compare them (`*_ms`, milliseconds since the epoch) and show them (`*_at`,
 * the RFC 3339 text as written).
 */

/** The namespace a credential selects (engine/types.ts Tenant). */
export interface TenantRef {
  project: string;
  env: 'test' | 'live';
}

/** A Brain as stored: `uid` is its storage identity (a re-created Brain of the same id gets another). */
export interface BrainRow {
  uid: string;
  project: string;
  env: 'test' | 'live';
  id: string;
  name: string | null;
  self_type: 'person' | 'org' | null;
  self_name: string | null;
  created_at: string;
  /** The last step of the Brain's sequence. */
  seq: number;
}

/** A Record as stored: `n` orders Records by write, `seq` is the Brain step that wrote it. */
export interface RecordRow {
  n: number;
  id: string;
  brain_uid: string;
  seq: number;
  kind: Kind;
  /** The typed content, as canonical JSON. */
  content: string;
  /** The citable text (core/shared/record-text.ts): what is indexed and quoted. */
  text: string;
  source_name: string | null;
  external_id: string | null;
  trust: MnemoRecord['source']['trust'];
  visibility: Visibility;
  occurred_at: string;
  occurred_ms: number;
  created_at: string;
}

/** Why a Memory version exists. */
export type MemoryCause = 'derived' | 'superseded_by_record' | 'correction' | 'rederived';

/**
 * One version of a Memory. Its lifecycle (`status`, `valid_to`) is settled from what supports it,
 * independent of the clock; what holds at an instant is read from the interval (core temporal rules).
 */
export interface MemoryVersionRow {
  n: number;
  id: string;
  brain_uid: string;
  lineage: string;
  /** The slot (who, what) a fact holds; null for a statement that is no slot value. */
  slot: string | null;
  version: number;
  statement: string;
  /** Its statement's key (core/derive/statement-key.ts): a claim of the same key joins it. */
  norm: string;
  subject: string;
  predicate: string | null;
  owner_state: 'self' | 'other' | 'unresolved';
  owner_entity: string | null;
  source_key: string;
  valid_from: string;
  valid_from_ms: number;
  valid_to: string | null;
  valid_to_ms: number | null;
  status: 'active' | 'superseded' | 'retracted';
  /** Waiting to be derived again (support lost); served again under the same id afterwards. */
  pending: boolean;
  corrects: string | null;
  retracted_by: string | null;
  revised_by: string | null;
  seq: number;
  learned_at: string;
  cause: MemoryCause;
}

/** A Memory's support: the Record it cites and the exact quote from that Record's text. */
export interface CitationRow {
  memory_id: string;
  record_id: string;
  quote: string;
}

/** One accepted version of an Object. */
export interface ObjectVersionRow {
  n: number;
  brain_uid: string;
  type: string;
  key: string;
  version: number;
  /** The value, as canonical JSON. */
  value: string;
  accepted_at: string;
  seq: number;
}

/** A page of rows and where the next one starts (opaque to the caller, the adapter's own). */
export interface RowPage<T> {
  rows: T[];
  next: string | null;
}
