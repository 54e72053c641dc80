/** What went wrong with a request, in words for the person at the page. */
export interface ApiProblem {
  status: number;
  code: string;
  message: string;
  /** Field-level problems of a record create or update, by field UID. */
  fields: Record<string, string>;
}

export const NETWORK_PROBLEM: ApiProblem = {
  status: 0,
  code: 'network_error',
  message: 'The service could not be reached. Check the connection and try again; nothing you typed was lost.',
  fields: {},
};

interface ErrorBody {
  message?: unknown;
  code?: unknown;
  invalid_fields?: unknown;
  required_fields?: unknown;
  type_errors?: unknown;
}

/** The message of a field the record type does not list (invalid_fields), so pages can tell that case apart. */
export const FIELD_NOT_IN_TYPE = 'This field is not part of the record type any more.';

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  date: 'a date (YYYY-MM-DD)',
  boolean: 'yes or no',
};

/** The API's error body as a problem; a record validation failure names each field's problem. */
export function problemOf(status: number, body: unknown): ApiProblem {
  const error = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const fields: Record<string, string> = {};
  for (const uid of listOf(error.invalid_fields)) if (typeof uid === 'string') fields[uid] = FIELD_NOT_IN_TYPE;
  for (const missing of listOf(error.required_fields)) {
    const uid = uidOf(missing);
    if (uid) fields[uid] = 'This field is required.';
  }
  for (const wrong of listOf(error.type_errors)) {
    const uid = uidOf(wrong);
    const expected = (wrong as { expected?: unknown }).expected;
    if (uid) fields[uid] = `This field must be ${EXPECTED[String(expected)] ?? String(expected)}.`;
  }
  return {
    status,
    code: typeof error.code === 'string' ? error.code : `http_${status}`,
    message: typeof error.message === 'string' ? error.message : `The service answered ${status}.`,
    fields,
  };
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const uidOf = (value: unknown): string | undefined => {
  const uid = (value as { uid?: unknown } | null)?.uid;
  return typeof uid === 'string' ? uid : undefined;
};
