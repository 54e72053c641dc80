import { Type, type TSchema } from '@sinclair/typebox';
import {
  EVENT_FILTER_PARAMETERS,
  EVENTS_LIMIT,
  EVENTS_MAX_PAGE,
  filterOperators,
  INTEGER_FILTER_BOUNDS,
  ORDER_BY_VALUES,
  parameterName,
  type FilterOperator,
  type FilterParameter,
} from '../../../domain/events/event-fields.js';
import { EventSchema } from '../../../domain/events/event.js';

/** Strings reach SQL as bound parameters; PostgreSQL text cannot hold NUL, so neither can a filter. */
const NO_NUL = '^[^\\u0000]*$';

const OPERATOR_WORDS: Record<FilterOperator, string> = {
  eq: 'equal to',
  contains: 'contains (case-sensitive substring)',
  gt: 'greater than',
  gte: 'greater than or equal to',
  lt: 'less than',
  lte: 'less than or equal to',
};

function filterSchema(parameter: FilterParameter, operator: FilterOperator): TSchema {
  const description = `${parameter.description}: ${OPERATOR_WORDS[operator]}`;
  if (parameter.kind === 'integer') return Type.Integer({ description, ...INTEGER_FILTER_BOUNDS });
  if (parameter.kind === 'timestamp') {
    return Type.String({ description, pattern: NO_NUL, examples: ['2026-11-21', '2026-11-21T15:04:05.123Z'] });
  }
  const comparison = operator === 'eq' || operator === 'contains' ? '' : ' (compared by code point)';
  return Type.String({ description: `${description}${comparison}`, pattern: NO_NUL });
}

/** Every filter parameter and operator suffix of the table, one property each. */
function filterProperties(): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {};
  for (const parameter of EVENT_FILTER_PARAMETERS) {
    for (const operator of filterOperators(parameter)) {
      properties[parameterName(parameter.name, operator)] = Type.Optional(filterSchema(parameter, operator));
    }
  }
  return properties;
}

/** Documents GET /v1/events in OpenAPI; parseEventQuery (domain/events) checks the query. */
export const ListEventsQuery = Type.Object(
  {
    ...filterProperties(),
    limit: Type.Optional(
      Type.Integer({
        minimum: EVENTS_LIMIT.minimum,
        maximum: EVENTS_LIMIT.maximum,
        description: `number of events to return; default ${EVENTS_LIMIT.default}`,
      }),
    ),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: EVENTS_MAX_PAGE, description: 'page number, from 1; the offset is (page - 1) * limit' })),
    order_by: Type.Optional(
      Type.Unsafe<string>({
        type: 'string',
        enum: ORDER_BY_VALUES,
        description:
          'field to order by, ascending; prefix with - for descending. Ties are broken by id in the same direction; ' +
          'nulls sort last either way. Default: created_at.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const EventsListResponse = Type.Object(
  {
    count: Type.Integer({ description: 'number of events returned in this request' }),
    results: Type.Array(EventSchema, { description: 'matching events' }),
  },
  { title: 'EventList' },
);

export { CompanyParams as IngestParams } from '../../schemas/company.js';

export const IngestResponse = Type.Object({ ingested: Type.Integer({ description: 'events read from the body and stored' }) });

const FEED_CURSOR = Type.String({
  maxLength: 64,
  description: 'a next_cursor (or a stream message id) of this company; opaque',
  examples: ['48LPEsD_fp2YKPctUE8Q68ljrwE5SoJH'],
});
const FEED_TYPE = Type.String({ minLength: 1, pattern: NO_NUL, description: 'only events of this type (exact match)' });

/** GET /v1/events/changes: the query, checked by this schema (unknown parameters are a 400). */
export const ChangesQuery = Type.Object(
  {
    after: Type.Optional({ ...FEED_CURSOR, description: `start after this position: ${FEED_CURSOR.description}; none = from the beginning` }),
    limit: Type.Optional(
      Type.Integer({
        minimum: EVENTS_LIMIT.minimum,
        maximum: EVENTS_LIMIT.maximum,
        description: `number of events to return; default ${EVENTS_LIMIT.default}`,
      }),
    ),
    type: Type.Optional(FEED_TYPE),
  },
  { additionalProperties: false },
);

export const EventsChangesResponse = Type.Object(
  {
    count: Type.Integer({ description: 'number of events returned in this request' }),
    results: Type.Array(EventSchema, { description: 'events in the order they were stored; a replaced event only at its latest store' }),
    next_cursor: Type.String({ description: 'pass back as `after` to continue exactly here; equals `after` when nothing is new' }),
  },
  { title: 'EventChangesPage' },
);

/** GET /v1/events/stream: where to start and what to follow. */
export const StreamQuery = Type.Object(
  {
    after: Type.Optional({
      ...FEED_CURSOR,
      description: `start after this position (the Last-Event-ID header wins); none = at the live end. ${FEED_CURSOR.description}`,
    }),
    type: Type.Optional(FEED_TYPE),
  },
  { additionalProperties: false },
);

export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(Type.String({ description: 'the id of the last message received: the stream resumes right after it' })),
});
