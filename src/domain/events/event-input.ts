import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { nestsDeeperThan, TOO_DEEP } from '../../lib/json-nesting.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';
import { isStorableText } from '../../lib/text.js';
import type { Exact } from '../../lib/type-checks.js';
import type { ApiEvent, StoredEvent } from './event.js';

/**
 * Keys are indexed: bounded so that an index entry (company, key, created_at, id) stays well
 * under PostgreSQL's B-tree row limit even in 4-byte characters.
 */
const KEY_MAX = 256;
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const key = () => nullable(Type.String({ maxLength: KEY_MAX }));
const number = () => nullable(Type.Number());

/** One ingested event: the Event shape, with id, timestamps, excluded and the nullable keys optional. */
export const IngestedEvent = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'default: a new UUIDv7' })),
    company_id: Type.Optional(Type.String({ description: 'must be the company of the path when given' })),
    connection_id: key(),
    connection_key: key(),
    created_at: Type.Optional(Type.String({ description: 'ISO 8601 date-time with Z or an offset; default: now' })),
    excluded: Type.Optional(Type.Boolean({ description: 'default: false' })),
    flow_id: key(),
    flow_key: key(),
    flow_session: nullable(Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER })),
    like_value: number(),
    seconds_active: number(),
    seconds_running: number(),
    selected_decision: key(),
    step_key: key(),
    text: nullable(Type.String()),
    type: Type.String({ minLength: 1, maxLength: KEY_MAX }),
    updated_at: Type.Optional(Type.String({ description: 'ISO 8601 date-time with Z or an offset; default: now' })),
    user_id: key(),
    version_id: key(),
    version_key: key(),
    version_object: Type.Optional(Type.Unknown({ description: 'any JSON, kept verbatim; absent stays absent' })),
  },
  { additionalProperties: false, title: 'IngestedEvent' },
);
type IngestedEventValue = Static<typeof IngestedEvent>;
true satisfies Exact<keyof IngestedEventValue, keyof ApiEvent>;

const checker = TypeCompiler.Compile(IngestedEvent);

/** What each field must be, in the words of a 400. */
const EXPECTED: Record<string, string> = {
  id: `a string of 1 to 128 characters`,
  company_id: 'a string',
  created_at: 'an ISO 8601 timestamp',
  updated_at: 'an ISO 8601 timestamp',
  excluded: 'true or false',
  flow_session: 'an integer or null',
  like_value: 'a number or null',
  seconds_active: 'a number or null',
  seconds_running: 'a number or null',
  text: 'a string or null',
  type: `a non-empty string of at most ${KEY_MAX} characters`,
};
const expected = (field: string) => EXPECTED[field] ?? `a string of at most ${KEY_MAX} characters, or null`;

const STRING_FIELDS = [
  'id',
  'connection_id',
  'connection_key',
  'flow_id',
  'flow_key',
  'selected_decision',
  'step_key',
  'text',
  'type',
  'user_id',
  'version_id',
  'version_key',
] as const;

/** Why an ingested event was refused; the caller names its line or index. */
export class EventInputError extends Error {
  constructor(
    message: string,
    /** The field at fault; null when the event as a whole is. */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'EventInputError';
  }
}

/**
 * Checks one ingested event against the Event schema and completes it: a missing id becomes a
 * UUIDv7, missing timestamps the request's time, a missing excluded false, missing keys null.
 * Timestamps are normalised to ISO 8601 UTC with milliseconds.
 */
export function createEventNormalizer(companyId: string, clock: Clock): (input: unknown) => StoredEvent {
  const now = clock.now().toISOString();
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new EventInputError('must be a JSON object (an event)');
    }
    if (!checker.Check(input)) throw firstSchemaError(input);
    const event = input as IngestedEventValue;
    if (event.company_id !== undefined && event.company_id !== companyId) {
      throw new EventInputError(`company_id '${event.company_id.slice(0, 200)}' is not the company of the path ('${companyId}')`, 'company_id');
    }
    for (const field of STRING_FIELDS) {
      const value = event[field];
      if (typeof value === 'string' && !isStorableText(value)) {
        throw new EventInputError(`field '${field}' contains a NUL character or an unpaired surrogate`, field);
      }
    }
    if (nestsDeeperThan(event.version_object)) throw new EventInputError(`field 'version_object' ${TOO_DEEP}`, 'version_object');
    const createdAt = timestamp(event.created_at, 'created_at');
    return {
      id: event.id ?? uuidv7(clock.now().getTime()),
      company_id: companyId,
      connection_id: event.connection_id ?? null,
      connection_key: event.connection_key ?? null,
      created_at: createdAt ?? now,
      excluded: event.excluded ?? false,
      flow_id: event.flow_id ?? null,
      flow_key: event.flow_key ?? null,
      flow_session: event.flow_session ?? null,
      like_value: event.like_value ?? null,
      seconds_active: event.seconds_active ?? null,
      seconds_running: event.seconds_running ?? null,
      selected_decision: event.selected_decision ?? null,
      step_key: event.step_key ?? null,
      text: event.text ?? null,
      type: event.type,
      updated_at: (event.updated_at === event.created_at ? createdAt : timestamp(event.updated_at, 'updated_at')) ?? now,
      user_id: event.user_id ?? null,
      version_id: event.version_id ?? null,
      version_key: event.version_key ?? null,
      version_object: Object.hasOwn(event, 'version_object') ? JSON.stringify(event.version_object) : null,
    };
  };
}

const CANONICAL_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function timestamp(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  // Most events arrive already in the stored form; it only needs to name a real instant.
  if (CANONICAL_TIMESTAMP.test(value) && namesRealInstant(value)) return value;
  const parsed = parseTimestampFilter(value);
  if (!parsed) {
    throw new EventInputError(`field '${field}' must be an ISO 8601 date or date-time with Z or an offset: got '${value.slice(0, 80)}'`, field);
  }
  return parsed.iso;
}

const digits = (text: string, start: number, length: number): number => {
  let value = 0;
  for (let i = start; i < start + length; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
};

/**
 * Whether a canonical timestamp's fields are in range (a real day of its month, hours below 24):
 * what a round trip through Date would show, without a Date per event.
 */
function namesRealInstant(value: string): boolean {
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= monthDays && digits(value, 11, 2) < 24 && digits(value, 14, 2) < 60 && digits(value, 17, 2) < 60;
}

function firstSchemaError(input: unknown): EventInputError {
  const error = checker.Errors(input).First();
  if (!error) return new EventInputError('is not a valid event');
  const field = error.path.split('/')[1] ?? '';
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return new EventInputError(`unknown field '${field.slice(0, 200)}'`, field.slice(0, 200));
  if (error.type === ValueErrorType.ObjectRequiredProperty) return new EventInputError(`missing field '${field}'`, field);
  return new EventInputError(`field '${field}' must be ${expected(field)}: got ${shownValue(error.value)}`, field);
}

/** A refused value as the message shows it; a number too large for a double (1e400 parses as Infinity) is not `null`. */
function shownValue(value: unknown): string | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large';
  return JSON.stringify(value)?.slice(0, 80);
}
