import { Type, type Static } from '@sinclair/typebox';
import { isStorableText } from '../../lib/text.js';

export const MAX_DISPLAY_NAME_LENGTH = 120;
/** The longest address RFC 5321 lets a mailbox have. */
export const MAX_SUPPORT_EMAIL_LENGTH = 254;

/** The profile as the hosted form shows it: the same two values the operator sets, nothing else of the company. */
export const FormCompanySchema = Type.Object(
  {
    display_name: Type.Union([Type.String(), Type.Null()], { description: 'the name the hosted form shows ("Acme Equipment Finance"); null: not set' }),
    support_email: Type.Union([Type.String(), Type.Null()], { description: 'where the person may write with questions; null: not set' }),
  },
  { title: 'FormCompany', additionalProperties: false },
);

export type FormCompany = Static<typeof FormCompanySchema>;

/** A company's profile as the operator API and CLI show it. */
export const CompanyProfileSchema = Type.Object(
  { company_id: Type.String(), ...FormCompanySchema.properties },
  { title: 'CompanyProfile', additionalProperties: false },
);

export type CompanyProfile = Static<typeof CompanyProfileSchema>;

/** Control, format (zero-width, bidi) and line/paragraph separator characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/**
 * An address a person can write to: one `@`, a local part and a dotted domain of visible
 * characters, no blanks. Deliberately the shape only: whether the mailbox exists is the
 * operator's to know.
 */
const EMAIL_SHAPE = /^[^\s@"(),:;<>[\\\]]+@[^\s@"(),:;<>[\\\]_]+\.[^\s@"(),:;<>[\\\]_.]{2,}$/u;

/**
 * What is wrong with each value of a profile to store, by its name; empty when nothing is.
 * Values arrive trimmed; null clears one.
 */
export function profileProblems(profile: FormCompany): string[] {
  const problems: string[] = [];
  const name = profile.display_name;
  if (name !== null) {
    const length = [...name].length;
    if (length === 0) problems.push("'display_name' must not be empty (send null to clear it)");
    else if (length > MAX_DISPLAY_NAME_LENGTH) problems.push(`'display_name' must be at most ${MAX_DISPLAY_NAME_LENGTH} characters (has ${length})`);
    else if (!isStorableText(name) || INVISIBLE.test(name)) problems.push("'display_name' must hold visible characters only (no control or format characters)");
  }
  const email = profile.support_email;
  if (email !== null) {
    if (email.length > MAX_SUPPORT_EMAIL_LENGTH) {
      problems.push(`'support_email' must be at most ${MAX_SUPPORT_EMAIL_LENGTH} characters (has ${email.length})`);
    } else if (!isStorableText(email) || INVISIBLE.test(email) || !EMAIL_SHAPE.test(email) || email.includes('..')) {
      problems.push(`'support_email' must be an email address such as help@example.com (got "${email.slice(0, 80)}")`);
    }
  }
  return problems;
}

/** A value as stored: surrounding blanks removed, so "  Acme " and "Acme" are one name. */
export const trimmedOrNull = (value: string | null | undefined): string | null => (value == null ? null : value.trim());
