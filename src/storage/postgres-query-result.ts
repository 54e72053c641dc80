/** What Kysely's PostgreSQL connection reads of a query's result. */
export interface PostgresQueryResult {
  readonly command: string;
  readonly rowCount: number | null;
  readonly rows: unknown[];
}
