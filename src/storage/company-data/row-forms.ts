import type { ExportedRow } from '../../domain/company-export/company-data.port.js';
import type { DialectName } from '../database.js';
import type { ExportedTable } from './exported-table.js';

/**
 * A row as the export carries it: the table's columns in the list's order, bytes as base64 and
 * booleans as true/false, so that both databases export the same text for the same data.
 */
export function exportedRow(spec: ExportedTable, row: Record<string, unknown>): ExportedRow {
  const out: ExportedRow = {};
  for (const column of spec.columns) {
    const value = row[column];
    if (spec.binary?.includes(column) && value instanceof Uint8Array)
      out[column] = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
    else if (spec.boolean?.includes(column) && value !== null) out[column] = value === true || value === 1;
    else out[column] = value;
  }
  return out;
}

/** An exported row back in the database's form (base64 to bytes, booleans as the database stores them). */
export function storedRow(spec: ExportedTable, row: ExportedRow, dialect: DialectName): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of [...spec.columns, ...(spec.suppliedOnImport ?? [])]) {
    const value = row[column];
    if (spec.binary?.includes(column) && typeof value === 'string') out[column] = Buffer.from(value, 'base64');
    else if (spec.boolean?.includes(column) && typeof value === 'boolean' && spec.table !== 'events' && dialect === 'sqlite') out[column] = value ? 1 : 0;
    else out[column] = value;
  }
  return out;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** What is wrong with an item's data: not an object, a column missing or unknown, or of a type no column takes. */
export function rowProblem(spec: ExportedTable, row: unknown): string | null {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return 'its data is not an object';
  const data = row as Record<string, unknown>;
  const unknown = Object.keys(data).filter((column) => !spec.columns.includes(column as never));
  if (unknown.length > 0) return `unknown column(s) ${unknown.join(', ')}`;
  for (const column of spec.columns) {
    if (!(column in data)) return `column ${column} is missing`;
    const value = data[column];
    if (value !== null && typeof value === 'object') return `column ${column} holds an object or array, not a value`;
    if (spec.binary?.includes(column) && (typeof value !== 'string' || !BASE64.test(value))) return `column ${column} is not base64 text`;
    if (spec.boolean?.includes(column) && typeof value !== 'boolean' && value !== null) return `column ${column} is not true or false`;
  }
  if (spec.key.some((column) => data[column] === null)) return `a key column (${spec.key.join(', ')}) is null`;
  return null;
}
