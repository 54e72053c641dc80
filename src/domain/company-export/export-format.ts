/**
 * The company export format: NDJSON, one JSON object a line.
 *
 *   {"format":"wrs-company-export","version":1,"company":...,"service_version":...,"exported_at":...,"database":...}
 *   {"kind":"<kind>","data":{...}}            one line per item, kinds in EXPORT order, each in key order
 *   {"kind":"trailer","counts":{...},"sha256":"<hex>"}
 *
 * The trailer's checksum is the SHA-256 of every byte before it (the header and item lines, each
 * with its newline), so a truncated or altered file is detected before anything is imported.
 */
export const EXPORT_FORMAT = 'wrs-company-export';
export const EXPORT_FORMAT_VERSION = 1;
export const EXPORT_MEDIA_TYPE = 'application/x-ndjson';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface ExportHeader {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: number;
  readonly company: string;
  readonly service_version: string;
  readonly exported_at: string;
  readonly database: DatabaseKind;
}

/** One exported row: its kind (the table it comes from) and its columns, without company_id. */
export interface ExportItem {
  readonly kind: string;
  readonly data: Record<string, unknown>;
}

export interface ExportTrailer {
  readonly kind: 'trailer';
  /** Item lines per kind, every exported kind named (0 when it has none). */
  readonly counts: Record<string, number>;
  readonly sha256: string;
}

export const TRAILER_KIND = 'trailer';
