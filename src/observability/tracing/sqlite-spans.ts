import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { sqliteQueries, type SqliteQueryMessage } from '../../storage/sqlite-query-channel.js';

type TracedQuery = SqliteQueryMessage & { span?: Span };

/** `SELECT`, `INSERT`, `BEGIN`...: the statement's first word, as the PostgreSQL spans name theirs. */
function operationOf(sql: string): string {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
}

/**
 * A client span for every SQLite statement run inside a trace, shaped like the spans of the
 * pg instrumentation (`db.system.name`, `db.query.text`), so a trace reaches the SQL on both
 * databases. Statements outside any trace (migrations, the webhook worker's polls) make none,
 * as `requireParentSpan` keeps it for PostgreSQL. Answers the function that stops listening.
 */
export function traceSqliteQueries(tracer: Tracer): () => void {
  const handlers = {
    start(message: TracedQuery) {
      const parent = context.active();
      if (trace.getSpan(parent) === undefined) return;
      const operation = operationOf(message.sql);
      message.span = tracer.startSpan(
        `sqlite.query:${operation}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': 'sqlite', 'db.operation.name': operation, 'db.query.text': message.sql },
        },
        parent,
      );
    },
    end(message: TracedQuery) {
      message.span?.end();
    },
    error(message: TracedQuery & { error?: unknown }) {
      const { span, error } = message;
      if (!span) return;
      if (error instanceof Error) span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    },
    asyncStart() {},
    asyncEnd() {},
  };
  sqliteQueries.subscribe(handlers);
  return () => void sqliteQueries.unsubscribe(handlers);
}
