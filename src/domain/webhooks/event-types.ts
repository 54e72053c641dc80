/** What a webhook may subscribe to; `*` subscribes to all of them, including types added later. */
export const WEBHOOK_EVENT_TYPES = ['record.created', 'record.updated', 'record.deleted', 'record_token.created', 'step.completed', 'events.ingested'] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const ALL_EVENTS = '*';
