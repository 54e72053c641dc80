import type { FieldValues } from '../record-types/compiled-type.js';

/** An object of JSON values keyed by name. */
export type JsonObject = Record<string, unknown>;

/**
 * A record as the domain works with it: its JSON values parsed. An optional value the record
 * does not have is undefined (absent from its API form); null is a value (JSON null). How it is
 * stored is storage's business (src/storage/repositories/record-mapper.ts).
 */
export interface RecordModel {
  readonly id: string;
  /** custom, uccfiling, infoleaseasset, ... */
  readonly recordType: string;
  /** The custom record type (uid) the record follows, or null for records of other kinds. */
  readonly typeId: string | null;
  readonly uid?: unknown;
  readonly status: string;
  readonly parentRecord?: JsonObject | null;
  readonly childRecords: readonly unknown[];
  readonly instance?: unknown;
  /** Values keyed by field name. */
  readonly fields?: FieldValues;
  /** Keyed by source name, each value keyed by object name. */
  readonly linked?: Readonly<Record<string, JsonObject>>;
  /** The views as imported; they count only while the record has no live type. */
  readonly storedViews: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}
