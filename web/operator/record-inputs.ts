/**
 * The values a template renders for a record, by schema name, as the service's pdf_create step
 * makes them (src/domain/steps/record-inputs.ts): the record's fields by field name, then its
 * id, status and created_at; numbers and booleans as in JSON, null as empty, objects as JSON.
 */
export function recordInputs(record: { id: string; status: string; created_at: string; fields?: Record<string, unknown> }): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.fields ?? {})) inputs[name] = stringify(value);
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
