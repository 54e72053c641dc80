import type { StoredRecordType } from '../record-types/stored-record-type.js';
import type { TransactionScope } from '../unit-of-work.js';
import type { RecordReferences } from './record-references.js';
import type { FieldValues } from '../record-types/compiled-type.js';
import type { RecordOrder } from './list-query.js';
import type { RecordModel } from './record-model.js';

/** A record's place in a list order: the value of the order's column, then its id. */
export interface RecordKey {
  readonly at: string;
  readonly id: string;
}

export interface RecordBound extends RecordKey {
  /** Include the record at the bound itself. */
  readonly inclusive?: boolean;
}

export interface RecordListFilter {
  /** Exact `record_type`. */
  readonly recordType?: string;
  /** Records that follow this custom record type (defined now or not). */
  readonly typeId?: string;
  /**
   * Records in a view: those of each defined type that has the view, with one of the view's
   * statuses (an empty list: any status), plus records without a live type whose imported
   * views name it.
   */
  readonly view?: { readonly viewId: string; readonly typed: ReadonlyArray<{ typeId: string; statuses: readonly string[] }> };
  /** Strict bounds on a timestamp column. */
  readonly time?: { readonly column: 'created_at' | 'updated_at'; readonly after?: string; readonly before?: string };
}

export interface RecordPageQuery {
  /** The list's order; `after` and `before` are places in it. */
  readonly order: RecordOrder;
  readonly after?: RecordBound;
  readonly before?: RecordBound;
  /** Walk the order backwards (for pages that end at a bound). */
  readonly backwards?: boolean;
  readonly limit: number;
}

/** What removing a deleted record's references changes of another record. */
export type ReferencesChange = RecordReferences & Pick<RecordModel, 'updatedAt'>;

/** What a PATCH may change of a record. */
export interface RecordChange {
  readonly status: string;
  readonly fields: FieldValues | undefined;
  readonly updatedAt: string;
}

export interface RecordsRepository {
  find(companyId: string, id: string): Promise<RecordModel | undefined>;
  /** A record and the version of its live custom type (undefined when it has none), in one read. */
  findWithTypeVersion(companyId: string, id: string): Promise<{ record: RecordModel; typeVersion: number | undefined } | undefined>;
  /** A record's place in an order by `column`. */
  findKey(companyId: string, id: string, column: RecordOrder['column']): Promise<RecordKey | undefined>;
  page(companyId: string, filter: RecordListFilter, query: RecordPageQuery): Promise<RecordModel[]>;
  exists(companyId: string, filter: RecordListFilter, bounds: Omit<RecordPageQuery, 'limit' | 'backwards'>): Promise<boolean>;
  /** How many records match the filter. */
  count(companyId: string, filter: RecordListFilter): Promise<number>;
  /** The ids among those given that already exist; read in the scope's transaction when given one. */
  existingIds(companyId: string, ids: readonly string[], scope?: TransactionScope): Promise<string[]>;
  /** Inserts records and their stored views in the scope's transaction. `onProgress` gets the records inserted so far. */
  insertMany(companyId: string, records: readonly RecordModel[], scope: TransactionScope, onProgress?: (inserted: number) => void): Promise<void>;
  /**
   * Reads a record and its live type, lets `change` decide the record's new state, and writes
   * it, all in the scope's transaction with the record locked and its type unchangeable in
   * between; answers the updated record, or undefined when there is no such record.
   */
  update(
    companyId: string,
    id: string,
    change: (record: RecordModel, type: StoredRecordType | undefined) => Promise<RecordChange> | RecordChange,
    scope: TransactionScope,
  ): Promise<RecordModel | undefined>;
  /**
   * Reads a record and its live type with the record locked, lets `check` refuse the deletion
   * (by throwing), then deletes the record and its stored views, all in the scope's
   * transaction; answers the deleted record, or undefined when there is no such record.
   */
  remove(
    companyId: string,
    id: string,
    check: (record: RecordModel, type: StoredRecordType | undefined) => void,
    scope: TransactionScope,
  ): Promise<RecordModel | undefined>;
  /**
   * The company's other records whose parent_record, child_records or linked may name the
   * record (a superset, matched on the text of its JSON id). They and the record itself are
   * locked until the scope's transaction ends: call it before `remove`.
   */
  mentioning(companyId: string, recordId: string, scope: TransactionScope): Promise<RecordModel[]>;
  /** Writes a record's references and updated_at in the scope's transaction. */
  updateReferences(companyId: string, id: string, change: ReferencesChange, scope: TransactionScope): Promise<void>;
}
