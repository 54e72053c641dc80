import { randomBytes } from 'node:crypto';
import { isCalendarDateString, parseTimestampFilter } from '../../lib/timestamps.js';
import type { Check } from '../../providers/checks/check-provider.js';
import type { NewCheckRow } from '../../storage/repositories/checks.js';

/** A Lob-shaped check as the operator sends it, after the route schema checked its structure. */
export type CheckInput = Record<string, unknown> & {
  id?: string;
  amount: number;
  to: AddressInput;
  from: AddressInput;
  metadata?: Record<string, string>;
  send_date?: string;
  date_created?: string;
  date_modified?: string;
  expected_delivery_date?: string | null;
  mail_type?: string;
};

type AddressInput = Record<string, unknown> & { name?: string | null; company?: string | null; metadata?: Record<string, string> };

/** One thing wrong with one added check. */
export interface CheckProblem {
  readonly index: number;
  readonly field: string;
  readonly message: string;
}

export type NormalizedCheck = { ok: true; row: NewCheckRow } | { ok: false; problems: CheckProblem[] };

/** Lob's check ids: `chk_` and 16 hex digits. */
export const newCheckId = (): string => `chk_${randomBytes(8).toString('hex')}`;

const DEFAULT_MAIL_TYPE = 'usps_first_class';
const METADATA_FORBIDDEN = /["\\]/;

/**
 * Checks the rules the schema cannot (dates, their order, cents, a name or company on each
 * address, metadata keys) and fills what Lob would have filled: id, timestamps, send_date,
 * carrier, mail_type, object.
 */
export function normalizeCheck(input: CheckInput, index: number, now: Date): NormalizedCheck {
  const problems: CheckProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ index, field, message });

  const timestamp = (field: 'date_created' | 'date_modified' | 'send_date'): string | undefined => {
    const value = input[field];
    if (value === undefined) return undefined;
    const parsed = parseTimestampFilter(value);
    if (!parsed) problem(field, 'must be an ISO 8601 date or date-time with Z or an offset');
    return parsed?.iso;
  };
  const dateCreated = timestamp('date_created') ?? now.toISOString();
  const dateModified = timestamp('date_modified') ?? dateCreated;
  const sendDate = timestamp('send_date') ?? dateCreated;
  if (sendDate < dateCreated) problem('send_date', 'must not be earlier than date_created');
  if (dateModified < dateCreated) problem('date_modified', 'must not be earlier than date_created');

  let expectedDelivery = input.expected_delivery_date;
  if (typeof expectedDelivery === 'string' && !isCalendarDateString(expectedDelivery)) {
    const parsed = parseTimestampFilter(expectedDelivery);
    if (parsed) expectedDelivery = parsed.iso;
    else problem('expected_delivery_date', 'must be an ISO 8601 date (YYYY-MM-DD) or date-time');
  }

  const cents = input.amount * 100;
  if (Math.abs(cents - Math.round(cents)) > 1e-6) problem('amount', 'must be in whole cents (at most two decimals)');

  for (const side of ['to', 'from'] as const) {
    const address = input[side];
    if (!nonBlank(address.name) && !nonBlank(address.company)) problem(side, 'needs a name or a company');
    checkMetadata(address.metadata, `${side}.metadata`, problem);
  }
  checkMetadata(input.metadata, 'metadata', problem);

  if (problems.length > 0) return { ok: false, problems };

  const id = input.id ?? newCheckId();
  const mailType = input.mail_type ?? DEFAULT_MAIL_TYPE;
  const check: Check = {
    id,
    description: input.description ?? null,
    metadata: input.metadata ?? {},
    ...(input.check_number !== undefined ? { check_number: input.check_number } : {}),
    memo: input.memo ?? null,
    amount: Math.round(cents) / 100,
    ...pick(input, ['url']),
    to: input.to,
    from: input.from,
    bank_account: input.bank_account,
    carrier: input.carrier ?? 'USPS',
    tracking_events: input.tracking_events ?? [],
    ...pick(input, ['thumbnails', 'merge_variables', 'message', 'use_type']),
    ...(expectedDelivery !== undefined ? { expected_delivery_date: expectedDelivery } : {}),
    mail_type: mailType,
    date_created: dateCreated,
    date_modified: dateModified,
    send_date: sendDate,
    ...pick(input, [
      'check_bottom_template_id',
      'attachment_template_id',
      'check_bottom_template_version_id',
      'attachment_template_version_id',
      'deleted',
    ]),
    object: 'check',
  };
  return {
    ok: true,
    row: { id, date_created: dateCreated, send_date: sendDate, scheduled: sendDate > dateCreated, mail_type: mailType, check },
  };
}

function nonBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

function checkMetadata(
  metadata: Record<string, string> | undefined,
  field: string,
  problem: (field: string, message: string) => void,
): void {
  if (!metadata) return;
  for (const [key, value] of Object.entries(metadata)) {
    if (key.length > 40) problem(`${field}.${key.slice(0, 40)}`, 'metadata keys are at most 40 characters');
    if (METADATA_FORBIDDEN.test(key) || METADATA_FORBIDDEN.test(value)) {
      problem(`${field}.${key.slice(0, 40)}`, 'metadata keys and values may not contain " or \\');
    }
  }
}

function pick(input: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => input[field] !== undefined).map((field) => [field, input[field]]));
}
