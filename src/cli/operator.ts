import { parseArgs } from 'node:util';
import type { AppContext } from '../app-context.js';
import type { Config } from '../config/config.js';
import { COMPANY_ID_RULE, companyIdProblem } from '../domain/auth/company-id.js';
import { AppError } from '../errors/app-error.js';
import { UsageError } from './command.js';
import { InputFileError } from './input-file.js';

/** Items of an error's detail lists shown on stderr. */
const MAX_LISTED = 20;

/** `--company` and `--json`, taken by every operator command. */
export const COMPANY_AND_JSON = { company: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

export function requireCompany(company: string | undefined): string {
  if (company === undefined) throw new UsageError('--company is required');
  const problem = companyIdProblem(company);
  if (problem) throw new UsageError(`--company ${problem} (${COMPANY_ID_RULE})`);
  return company;
}

export function requireOption(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** Exactly `count` positional words (e.g. one FILE), else a usage error saying `what`. */
export function positionalsExactly(positionals: string[], count: number, what: string): string[] {
  if (positionals.length !== count) throw new UsageError(what);
  return positionals;
}

const ID_COMMAND_OPTIONS = { ...COMPANY_AND_JSON, id: { type: 'string' } } as const;

/** Parses `--company C --id ID [--json]` and exactly `files` FILE arguments (0 or 1). */
export function parseIdCommand(argv: string[], files: 0 | 1, fileHolds: string) {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: files > 0, options: ID_COMMAND_OPTIONS });
  const [file] = positionalsExactly(positionals, files, `name exactly one FILE holding ${fileHolds}`);
  return { companyId: requireCompany(values.company), id: requireOption(values.id, 'id'), json: values.json, file };
}

/**
 * Runs the body of an operator command. What the domain refuses (an AppError) and a file that
 * cannot be read are reported on stderr and exit 1, optionally prefixed with the input's name;
 * usage and config errors go on to main.ts (exit 2 and 78).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: takes a Command's run, which may return nothing (exit 0)
export async function reportingFailures(run: () => Promise<number | void>, subject?: string): Promise<number> {
  try {
    return (await run()) ?? 0;
  } catch (error) {
    if (error instanceof AppError) {
      console.error(describeAppError(error, subject));
      return 1;
    }
    if (error instanceof InputFileError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

/**
 * The services of the app, for one command: migrations run first, as on `serve`. A command
 * renders at most one PDF (a template's trial render), so one render thread is enough.
 */
export async function withAppContext<T>(config: Config, use: (ctx: AppContext) => Promise<T>): Promise<T> {
  const { createAppContext } = await import('../app-context.js');
  const ctx = await createAppContext(config, { pdfWorkers: 1 });
  try {
    return await use(ctx);
  } finally {
    await ctx.close();
  }
}

/** `--json`: the body the HTTP route answers, one line; otherwise the human line. */
export function printResult(json: boolean, body: unknown, human: string): void {
  console.log(json ? JSON.stringify(body) : human);
}

/** The message, then each list of the error's details (problems, errors, ...), one item a line. */
export function describeAppError(error: AppError, subject?: string): string {
  const lines = [subject ? `${subject}: ${error.message}` : error.message];
  for (const [name, value] of Object.entries(error.details)) {
    if (!Array.isArray(value) || value.length === 0) continue;
    lines.push(`${name}:`);
    for (const item of value.slice(0, MAX_LISTED)) lines.push(`  - ${describeItem(item)}`);
    if (value.length > MAX_LISTED) lines.push(`  ... and ${value.length - MAX_LISTED} more`);
  }
  return lines.join('\n');
}

function describeItem(item: unknown): string {
  if (typeof item === 'string') return item;
  const { index, field, message } = (item ?? {}) as Record<string, unknown>;
  if (typeof index === 'number' && typeof message === 'string') return `[${index}]${typeof field === 'string' ? `.${field}` : ''} ${message}`;
  return JSON.stringify(item);
}

export const plural = (count: number, one: string, many = `${one}s`): string => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
