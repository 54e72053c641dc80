import type pg from 'pg';
import { loadedOnFirstUse } from '../lib/loaded-on-first-use.js';
import { postgresDriver } from './postgres-driver.js';
import { rowBuilder, type RowBuilder } from './row-builder.js';
import type { PostgresQueryResult } from './postgres-query-result.js';

/** `pg`'s own conversion of a parameter to its text form (dates, buffers, arrays, JSON). */
const pgUtilities = loadedOnFirstUse<{ prepareValue: (value: unknown) => unknown }>('pg/lib/utils.js');

/** The columns a named statement answers, and how each is read: fixed for a statement prepared on one connection. */
interface Shape {
  readonly parsers: readonly ((text: string) => unknown)[];
  readonly build: RowBuilder;
}

/** What `pg` hands a submittable: its connection, which writes protocol messages. */
interface Connection {
  readonly parsedStatements: Record<string, string | undefined>;
  readonly submittedNamedStatements: Record<string, string | undefined>;
  readonly stream: { cork?: () => void; uncork?: () => void };
  parse(config: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface FieldDescription {
  readonly name: string;
  readonly dataTypeID: number;
  readonly format: 'text' | 'binary';
}

const shapesByConnection = new WeakMap<Connection, Map<string, Shape>>();

const NO_SHAPE: Shape = { parsers: [], build: rowBuilder([]) };

/**
 * Runs a named prepared statement (prepared-statements.ts) through `pg`'s submittable
 * interface, rows read as arrays and made into objects by one compiled builder. A statement
 * prepared on a connection keeps the columns it answers (PostgreSQL refuses to run it once
 * they would change), so after its first run there the columns are not described again: a
 * point read is then bind, execute and sync, with no row description to read and no parser
 * looked up per column. `pg`'s own query object also copies its configuration and builds a
 * field list and a template row on every run, a tenth of a record read's time.
 */
export class PreparedQuery {
  /** Set by the caller, and wrapped by `pg` when the client has a query timeout. */
  callback: (error: Error | null, result?: PostgresQueryResult) => void = () => undefined;
  private shape: Shape | undefined;
  /** The shapes of the connection this query was submitted on. */
  private shapes: Map<string, Shape> | undefined;
  private readonly rows: unknown[] = [];
  private command = '';
  private rowCount: number | null = null;
  private failure: Error | undefined;

  constructor(
    readonly text: string,
    readonly name: string,
    private readonly values: unknown[],
  ) {}

  /** Runs the statement on `client` and answers its rows. */
  static run(client: pg.ClientBase, text: string, name: string, values: unknown[] | undefined): Promise<PostgresQueryResult> {
    const query = new PreparedQuery(text, name, values ?? []);
    return new Promise((resolve, reject) => {
      query.callback = (error, result) => (error ? reject(error) : resolve(result!));
      client.query(query as unknown as pg.QueryConfig);
    });
  }

  submit(connection: Connection): null {
    let shapes = shapesByConnection.get(connection);
    if (!shapes) shapesByConnection.set(connection, (shapes = new Map()));
    this.shapes = shapes;
    const prepared = connection.parsedStatements[this.name] !== undefined || connection.submittedNamedStatements[this.name] !== undefined;
    this.shape = prepared ? shapes.get(this.name) : undefined;
    connection.stream.cork?.();
    try {
      if (!prepared) {
        connection.parse({ text: this.text, name: this.name, types: [] });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      try {
        connection.bind({ portal: '', statement: this.name, values: this.values, valueMapper: pgUtilities().prepareValue });
      } catch (error) {
        // A parameter that cannot be sent: the connection still gets its sync, and the failure
        // is answered once the server says it is ready again.
        this.failure = error as Error;
        connection.sync();
        return null;
      }
      if (!this.shape) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: 0 });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.shape = shapeOf(message.fields);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.failure) return;
    const { parsers, build } = this.shape ?? NO_SHAPE;
    const values = message.fields;
    try {
      const row = new Array<unknown>(values.length);
      for (let i = 0; i < values.length; i++) {
        const value = values[i];
        row[i] = value === null || value === undefined ? null : parsers[i]!(value);
      }
      this.rows.push(build(row));
    } catch (error) {
      this.failure = error as Error;
    }
  }

  handleCommandComplete(message: { text: string }): void {
    const words = message.text.split(' ');
    this.command = words[0]!;
    const count = Number(words[words.length - 1]);
    this.rowCount = words.length > 1 && Number.isInteger(count) ? count : null;
  }

  handleReadyForQuery(connection: Connection): void {
    if (this.failure) return this.handleError(this.failure, connection);
    this.remember();
    this.callback(null, { command: this.command, rowCount: this.rowCount, rows: this.rows });
  }

  handleError(error: Error, _connection: Connection): void {
    this.callback(error);
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('a prepared statement takes no COPY data');
  }

  handleCopyData(): void {}

  /** The statement ran here once: its columns (none when no row description came) are known on this connection from now on. */
  private remember(): void {
    if (!this.shapes!.has(this.name)) this.shapes!.set(this.name, this.shape ?? NO_SHAPE);
  }
}

function shapeOf(fields: readonly FieldDescription[]): Shape {
  return {
    parsers: fields.map((field) => postgresDriver().types.getTypeParser(field.dataTypeID, field.format) as (text: string) => unknown),
    build: rowBuilder(fields.map((field) => field.name)),
  };
}
