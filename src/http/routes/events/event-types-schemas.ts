import { Type } from '@sinclair/typebox';

/** The route takes no query parameters: any is a 400, as on every list route. */
export const ListEventTypesQuery = Type.Object({}, { additionalProperties: false });

/** One event type of the company, and how many of its events are stored. */
export const EventTypeCount = Type.Object(
  {
    type: Type.String({ description: 'the event type, as events carry it in `type`' }),
    count: Type.Integer({ minimum: 1, description: 'how many events of the type the company has stored' }),
  },
  { title: 'EventTypeCount' },
);

export const EventTypesListResponse = Type.Object(
  {
    count: Type.Integer({ description: 'number of event types listed' }),
    results: Type.Array(EventTypeCount, { description: 'every event type of the company, by type' }),
  },
  { title: 'EventTypesListResponse' },
);

export const EVENT_TYPES_EXAMPLE = {
  count: 2,
  results: [
    { type: 'user_flow_session_started', count: 64 },
    { type: 'user_flow_step_completed', count: 212 },
  ],
};
