import { Type, type Static } from '@sinclair/typebox';

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/**
 * The Event as the API shows it, written once: the list response's schema (and so the OpenAPI
 * document), the ApiEvent type and the serializer's field order all come from it.
 */
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

export type ApiEvent = Static<typeof EventSchema>;

/** Every field of an Event but version_object, which is not a scalar. */
export type EventScalarField = Exclude<keyof ApiEvent, 'version_object'>;

/**
 * An event as stored and listed. `version_object` holds the JSON text of the event's
 * version_object, returned verbatim, or null when the event has none.
 */
export interface StoredEvent extends Omit<ApiEvent, 'version_object'> {
  version_object: string | null;
}

/**
 * An event's JSON text as the API shows it (event-json.ts). It is stored beside the event's
 * columns when the event is written, so a page is read as one text per event and joined, not
 * built field by field on every read.
 */
export type EventJson = string;
