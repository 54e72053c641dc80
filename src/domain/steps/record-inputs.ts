/** What a step needs to know of a record. */
export interface StepRecord {
  id: string;
  status: string;
  created_at: string;
  /** Custom field values keyed by field name. */
  fields: Record<string, unknown>;
}

/** Finds a record of a company; null when the company has no such record. */
export type StepRecordFinder = (companyId: string, recordId: string) => Promise<StepRecord | null>;

/**
 * The values a template renders, by schema name: the record's fields by field name, then its
 * `id`, `status` and `created_at` (which win over fields of the same name). pdfme renders
 * strings, so other values are written out: numbers and booleans as in JSON, null as empty,
 * objects and arrays as JSON (the form pdfme's table and list schemas read).
 */
export function recordInputs(record: StepRecord): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.fields)) inputs[name] = stringify(value);
  inputs.id = record.id;
  inputs.status = record.status;
  inputs.created_at = record.created_at;
  return inputs;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** The size of what a render takes in: every name and value, in UTF-8 bytes. */
export function inputBytes(inputs: Record<string, string>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(inputs)) bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  return bytes;
}
