import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { ContainsField } from '../domain/events/event-fields.js';
import type { EventFilter, EventListQuery } from '../domain/events/event-query.js';
import type { DialectName } from '../storage/database.js';
import { compileOnce, precompiled, type CompiledOnce } from '../storage/precompiled-query.js';
import type { DB } from '../storage/schema.js';
import {
  isContainsField,
  keyValuesMatching,
  matchingKeyValues,
  MAX_LISTED_VALUES,
  needleParameters,
  type ContainsMatches,
} from '../storage/repositories/event-query-compiler.js';

type Read = (query: CompiledQuery<{ value: string }>) => Promise<readonly { value: string }[]>;

type ContainsFilter = EventFilter & { readonly field: ContainsField };

/**
 * The dictionary values each `__contains` filter of the query matches (null for a filter with
 * too many to list), read through `read`; null when a filter matches no stored value at all, so
 * no event can match.
 */
export async function findContainsMatches(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  query: EventListQuery,
  read: Read,
): Promise<ContainsMatches | null> {
  return addMatches(new Map(), containsFilters(query), db, dialect, companyId, read);
}

/**
 * The company's data version and findContainsMatches' answer, the version and the first
 * filter's values read by one statement (one snapshot): a `__contains` that matches nothing, the
 * common miss, is answered by that statement alone: the scan of a small dictionary. A key with
 * more values takes a second statement, through the trigram index.
 */
export async function findContainsMatchesWithVersion(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  query: EventListQuery,
  read: Read,
): Promise<{ version: number; matches: ContainsMatches | null }> {
  const [first, ...others] = containsFilters(query);
  if (!first) throw new Error('findContainsMatchesWithVersion needs a query with a __contains filter');
  const { match, phrase } = needleParameters(dialect, String(first.value));
  const { version, values } =
    (await scanSmallDictionary(db, dialect, companyId, first.field, match)) ?? (await readThroughIndex(db, dialect, companyId, first.field, match, phrase));
  if (values.length === 0) return { version, matches: null };
  const matches = new Map<EventFilter, readonly string[] | null>([[first, listed(values)]]);
  return { version, matches: await addMatches(matches, others, db, dialect, companyId, read) };
}

function containsFilters(query: EventListQuery): ContainsFilter[] {
  return query.filters.filter((filter): filter is ContainsFilter => filter.operator === 'contains' && isContainsField(filter.field));
}

async function addMatches(
  matches: Map<EventFilter, readonly string[] | null>,
  filters: readonly ContainsFilter[],
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  read: Read,
): Promise<ContainsMatches | null> {
  for (const filter of filters) {
    const found = await read(
      matchingKeyValues(db, dialect, companyId, filter.field, String(filter.value))
        .limit(MAX_LISTED_VALUES + 1)
        .compile(),
    );
    if (found.length === 0) return null;
    matches.set(filter, listed(found.map((row) => row.value)));
  }
  return matches;
}

/** The values to compare with an IN list, or null when there are too many to list. */
function listed(values: readonly string[]): readonly string[] | null {
  return values.length > MAX_LISTED_VALUES ? null : values;
}

interface VersionAndValues {
  readonly version: number;
  readonly values: readonly string[];
}

async function readThroughIndex(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  field: ContainsField,
  match: string,
  phrase: string | undefined,
): Promise<VersionAndValues> {
  const statement = versionAndValuesStatement(db, dialect, phrase !== undefined);
  const params = [companyId, field, match, ...(phrase === undefined ? [] : [phrase])];
  const { rows } = await db.executeQuery(statement.bind(params));
  return { version: Number(rows[0]?.version ?? 0), values: matchedValues(rows) };
}

/**
 * How many of a key's dictionary values are compared with the needle one by one before the
 * trigram index is used instead. Below it the comparisons cost less than the index: on
 * PostgreSQL the index path is an unprepared statement (most of its cost parse and plan), on
 * SQLite an FTS5 query (docs/benchmarks.md, "Mechanisms and their verdicts").
 */
export const SCANNED_DICTIONARY_VALUES = 256;

type ScannedRow = { version: number | string | null; scanned: number | string; value: string | null };

type Scan = (companyId: string, field: ContainsField, match: string) => Promise<ScannedRow[]>;

/** The small-dictionary statement of each database (primary, standby), compiled once and on PostgreSQL kept prepared. */
const scans = new WeakMap<Kysely<DB>, Scan>();

/**
 * The company's data version and the key's values that match, when the key has at most
 * SCANNED_DICTIONARY_VALUES values; undefined for a larger dictionary (then readThroughIndex).
 *
 * The needle is the match of needleParameters: a LIKE pattern on PostgreSQL, the needle itself
 * for SQLite's instr() (SQLite's LIKE ignores case). The statement is kept prepared, so on
 * PostgreSQL its plan is generic: the primary key's range of (company, key), read in order and
 * cut at one value past the limit, whatever the company (a generic plan of the index path would
 * read a large dictionary whole). One row per matching value, or one row with a null value;
 * `scanned` says how many values were read.
 */
async function scanSmallDictionary(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  field: ContainsField,
  match: string,
): Promise<VersionAndValues | undefined> {
  let scan = scans.get(db);
  if (!scan) scans.set(db, (scan = smallDictionaryScan(db, dialect)));
  const rows = await scan(companyId, field, match);
  const [first] = rows;
  if (!first || Number(first.scanned) > SCANNED_DICTIONARY_VALUES) return undefined;
  return { version: Number(first.version ?? 0), values: matchedValues(rows) };
}

function smallDictionaryScan(db: Kysely<DB>, dialect: DialectName): Scan {
  return precompiled<ScannedRow, [string, ContainsField, string]>(db, 3, (db, companyId, field, match) => {
    const limit = sql.lit(SCANNED_DICTIONARY_VALUES + 1);
    const scanned = sql`select value from event_key_values where company_id = ${companyId} and field = ${field} order by value limit ${limit}`;
    const version = sql`coalesce((select version from data_versions where company_id = ${companyId}), 0)`;
    const contains = dialect === 'postgres' ? sql`value like ${match}` : sql`instr(value, ${match}) > 0`;
    const matched = sql`select value from scanned where ${contains}`;
    const query = sql<ScannedRow>`with scanned as (${scanned})
        select ${version} as version, (select count(*) from scanned) as scanned, matched.value
        from (select 1) as one left join (${matched}) as matched on true`;
    return { compile: () => query.compile(db) };
  });
}

/** The values of a version-and-values statement's rows (its one row has a null value when nothing matched). */
function matchedValues(rows: readonly { value: string | null }[]): string[] {
  return rows.flatMap((row) => (row.value === null ? [] : [row.value]));
}

type VersionAndValue = { version: number | string | null; value: string | null };

/** Compiled once per database and shape: PostgreSQL's, and SQLite's with and without an FTS5 phrase. */
const versionAndValuesStatements = new WeakMap<Kysely<DB>, Map<string, CompiledOnce<VersionAndValue>>>();

/**
 * One row per matching value (at most the limit), each beside the company's data version; one
 * row with a null value when nothing matches. Parameters: company, field, match, phrase.
 * Not kept prepared on PostgreSQL: a generic plan of LIKE over any pattern could give up the
 * trigram index for a company with a large dictionary.
 */
function versionAndValuesStatement(db: Kysely<DB>, dialect: DialectName, withPhrase: boolean): CompiledOnce<VersionAndValue> {
  let shapes = versionAndValuesStatements.get(db);
  if (!shapes) versionAndValuesStatements.set(db, (shapes = new Map()));
  const shape = `${dialect}:${withPhrase}`;
  let statement = shapes.get(shape);
  if (!statement) {
    statement = compileOnce<VersionAndValue>(withPhrase ? 4 : 3, (companyId, field, match, phrase) =>
      db
        .selectFrom(
          db
            .selectNoFrom((eb) =>
              eb.fn
                .coalesce(eb.selectFrom('data_versions').select('data_versions.version').where('data_versions.company_id', '=', companyId!), sql.lit(0))
                .as('version'),
            )
            .as('company_version'),
        )
        .leftJoin(
          keyValuesMatching(db, dialect, companyId!, field!, match!, withPhrase ? phrase : undefined)
            // A literal: SQLite prepares a statement with a bound LIMIT again at every run.
            .limit(sql.lit(MAX_LISTED_VALUES + 1))
            .as('matched'),
          (join) => join.onTrue(),
        )
        .select(['company_version.version', 'matched.value']),
    );
    shapes.set(shape, statement);
  }
  return statement;
}
