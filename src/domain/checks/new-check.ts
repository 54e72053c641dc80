import { randomBytes } from 'node:crypto';
import type { ItemProblem } from '../../errors/item-problems.js';
import { parseTimestampFilter, type ParsedTimestamp } from '../../lib/timestamps.js';
import { isPlainObject } from '../record-types/definition.js';
import type { Check } from './check.js';
import { CheckInput, DEFAULT_MAIL_TYPE } from './check-input.js';
import type { NewCheckRow } from './checks-repository.port.js';
import { shapeChecker } from './shape-problems.js';

/** One check of a batch, read: its row when it is sound, and what is wrong with it otherwise. */
export interface ReadCheck {
  /** The id the check names, when that id itself is sound (to find duplicates even among faulty checks). */
  readonly givenId: string | undefined;
  readonly row: NewCheckRow | undefined;
  readonly problems: ItemProblem[];
}

/** Lob's check ids: `chk_` and 16 hex digits. */
export const newCheckId = (): string => `chk_${randomBytes(8).toString('hex')}`;

const checkShape = shapeChecker(CheckInput);
const METADATA_FORBIDDEN = /["\\]/;
const METADATA_KEY_MAX = 40;
const MERGE_VARIABLES_MAX_CHARS = 25_000;
const TIMESTAMP_WORDS = 'must be an ISO 8601 date (2026-11-01) or date-time with Z or an offset (2026-11-01T10:00:00Z)';

/**
 * Reads one added check: its shape against Lob's check object, then the rules a schema cannot
 * say (real dates in order, whole cents, a name or a company on each address, metadata keys),
 * one problem a field, all of them. A sound check is kept exactly as given; only what Lob
 * fills itself is added when absent (id, timestamps, send_date, mail_type, carrier, object).
 */
export function readCheck(input: unknown, index: number, now: Date): ReadCheck {
  if (!isPlainObject(input)) {
    const message = "must be a JSON object (a check in Lob's shape)";
    return { givenId: undefined, row: undefined, problems: [{ index, field: null, message }] };
  }
  const problems: ItemProblem[] = checkShape(input).map(({ field, message }) => ({ index, field: field || null, message }));
  const faulty = new Set(problems.map((problem) => problem.field));
  const problem = (field: string, message: string) => {
    if (faulty.has(field)) return;
    faulty.add(field);
    problems.push({ index, field, message });
  };
  const sound = (field: string) => input[field] !== undefined && !faulty.has(field);

  const instant = (field: string): ParsedTimestamp | undefined => {
    if (!sound(field) || typeof input[field] !== 'string') return undefined;
    const parsed = parseTimestampFilter(input[field]);
    if (!parsed) problem(field, TIMESTAMP_WORDS);
    return parsed ?? undefined;
  };
  const created = instant('date_created');
  const createdAt = input.date_created === undefined ? now.toISOString() : created?.iso;
  const send = instant('send_date');
  const modified = instant('date_modified');
  for (const [field, parsed] of [
    ['send_date', send],
    ['date_modified', modified],
  ] as const) {
    if (parsed && createdAt && precedes(parsed, createdAt)) {
      problem(field, `must not be earlier than date_created${parsed.dateOnly ? ' (a bare date: not before its day)' : ''}`);
    }
  }
  instant('expected_delivery_date');

  if (sound('amount') && typeof input.amount === 'number' && !isWholeCents(input.amount)) {
    problem('amount', 'must be in whole cents (at most two decimals)');
  }
  for (const side of ['to', 'from']) {
    const address = input[side];
    if (!isPlainObject(address) || faulty.has(side)) continue;
    if (!nonBlank(address.name) && !nonBlank(address.company)) problem(side, 'needs a name or a company');
    checkMetadata(address.metadata, `${side}.metadata`, problem);
  }
  if (sound('metadata')) checkMetadata(input.metadata, 'metadata', problem);
  if (sound('merge_variables') && JSON.stringify(input.merge_variables).length > MERGE_VARIABLES_MAX_CHARS) {
    problem('merge_variables', `must be at most ${MERGE_VARIABLES_MAX_CHARS.toLocaleString('en-US')} characters as JSON`);
  }

  const givenId = sound('id') && typeof input.id === 'string' ? input.id : undefined;
  if (problems.length > 0 || !createdAt) return { givenId, row: undefined, problems };

  const sendAt = send?.iso ?? createdAt;
  const check: Check = { ...input, amount: Math.round((input.amount as number) * 100) / 100 };
  const filled: Check = {
    id: newCheckId(),
    description: null,
    metadata: {},
    memo: null,
    carrier: 'USPS',
    tracking_events: [],
    mail_type: DEFAULT_MAIL_TYPE,
    date_created: createdAt,
    date_modified: createdAt,
    send_date: createdAt,
    object: 'check',
  };
  for (const [field, value] of Object.entries(filled)) if (check[field] === undefined) check[field] = value;
  const row: NewCheckRow = {
    id: check.id as string,
    date_created: createdAt,
    send_date: sendAt,
    scheduled: sendAt > createdAt,
    mail_type: check.mail_type as string,
    check,
  };
  return { givenId, row, problems };
}

/** Lies before `iso`; a bare date means its whole UTC day, so it precedes only when that day ended. */
function precedes(parsed: ParsedTimestamp, iso: string): boolean {
  if (!parsed.dateOnly) return parsed.iso < iso;
  return new Date(Date.parse(parsed.iso) + 86_400_000).toISOString() <= iso;
}

function isWholeCents(amount: number): boolean {
  const cents = amount * 100;
  return Math.abs(cents - Math.round(cents)) <= 1e-6;
}

function nonBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

function checkMetadata(metadata: unknown, field: string, problem: (field: string, message: string) => void): void {
  if (!isPlainObject(metadata)) return;
  for (const [key, value] of Object.entries(metadata)) {
    const at = `${field}.${key.slice(0, METADATA_KEY_MAX)}`;
    if (key.length > METADATA_KEY_MAX) problem(at, `is a metadata key of more than ${METADATA_KEY_MAX} characters`);
    else if (METADATA_FORBIDDEN.test(key) || (typeof value === 'string' && METADATA_FORBIDDEN.test(value))) {
      problem(at, 'metadata keys and values may not contain " or \\');
    }
  }
}
