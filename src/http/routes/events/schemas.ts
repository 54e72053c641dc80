import { Type, type TSchema } from '@sinclair/typebox';
import {
  EVENT_FILTER_PARAMETERS,
  EVENT_SORT_FIELDS,
  EVENTS_LIMIT,
  EVENTS_MAX_PAGE,
  parameterName,
  type FilterOperator,
  type FilterParameter,
} from '../../../domain/events/event-fields.js';

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
  if (parameter.kind === 'integer') {
    return Type.Integer({ description, minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
  }
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
    const operators: FilterOperator[] = parameter.exact ? ['eq', ...parameter.operators] : [...parameter.operators];
    for (const operator of operators) {
      properties[parameterName(parameter.name, operator)] = Type.Optional(filterSchema(parameter, operator));
    }
  }
  return properties;
}

/** Query parameters whose values must be written as decimal integers (checked before coercion). */
export const INTEGER_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'limit',
  'page',
  ...EVENT_FILTER_PARAMETERS.filter((parameter) => parameter.kind === 'integer').flatMap((parameter) => [
    ...(parameter.exact ? [parameter.name] : []),
    ...parameter.operators.map((operator) => parameterName(parameter.name, operator)),
  ]),
]);

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
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: EVENTS_MAX_PAGE, description: 'page number, from 1; the offset is (page - 1) * limit' }),
    ),
    order_by: Type.Optional(
      Type.Unsafe<string>({
        type: 'string',
        enum: EVENT_SORT_FIELDS.flatMap((field) => [field, `-${field}`]),
        description:
          'field to order by, ascending; prefix with - for descending. Ties are broken by id in the same direction; ' +
          'nulls sort last either way. Default: created_at.',
      }),
    ),
  },
  { additionalProperties: false },
);

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const EventSchema = Type.Object(
  {
    id: Type.String({ description: 'unique event identifier' }),
    company_id: Type.String({ description: 'company the event belongs to' }),
    connection_id: nullableString('ID of the associated connection'),
    connection_key: nullableString('key of the associated connection'),
    created_at: Type.String({ format: 'date-time', description: 'ISO 8601 creation timestamp (UTC, ms)' }),
    excluded: Type.Boolean({ description: 'whether the event is excluded from reporting' }),
    flow_id: nullableString('ID of the associated flow'),
    flow_key: nullableString('key of the associated flow'),
    flow_session: Type.Union([Type.Integer(), Type.Null()], { description: 'flow session number' }),
    like_value: nullableNumber('like value of the event'),
    seconds_active: nullableNumber('seconds the user was active during the event'),
    seconds_running: nullableNumber('total seconds the event was running'),
    selected_decision: nullableString('title of the decision branch selected on a Decision step'),
    step_key: nullableString('key of the associated step'),
    text: nullableString('text content associated with the event'),
    type: Type.String({ description: 'event type, for example user_flow_session_started' }),
    updated_at: Type.String({ format: 'date-time', description: 'ISO 8601 last-updated timestamp (UTC, ms)' }),
    user_id: nullableString('UUID of the user the event relates to'),
    version_id: nullableString('ID of the associated flow version'),
    version_key: nullableString('key of the associated flow version'),
    version_object: Type.Optional(Type.Unknown({ description: 'snapshot of the flow version at the time of the event' })),
  },
  { title: 'Event' },
);

export const EventsListResponse = Type.Object(
  {
    count: Type.Integer({ description: 'number of events returned in this request' }),
    results: Type.Array(EventSchema, { description: 'matching events' }),
  },
  { title: 'EventsListResponse' },
);

export { CompanyParams as IngestParams } from '../../schemas/company.js';

export const IngestResponse = Type.Object({ ingested: Type.Integer({ description: 'events read from the body and stored' }) });
