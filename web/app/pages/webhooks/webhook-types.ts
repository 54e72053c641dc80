import type { ResponseBody } from '@wrs/client';

export type Webhook = ResponseBody<'listWebhooks', 200>['results'][number];
export type CreatedWebhook = ResponseBody<'createWebhook', 201>;
export type RotatedSecret = ResponseBody<'rotateWebhookSecret', 200>;
export type Delivery = ResponseBody<'listWebhookDeliveries', 200>['results'][number];
export type WebhookEventType = Webhook['events'][number];

export const EVENT_TYPE_CHOICES: readonly { type: WebhookEventType; label: string }[] = [
  { type: '*', label: 'All event types (*), including ones added later' },
  { type: 'record.created', label: 'record.created' },
  { type: 'record.updated', label: 'record.updated' },
  { type: 'record.deleted', label: 'record.deleted' },
  { type: 'record_token.created', label: 'record_token.created' },
  { type: 'step.completed', label: 'step.completed' },
  { type: 'events.ingested', label: 'events.ingested' },
];

/** The overlaps the console offers when a secret rotates (the API takes any from 0 to 7 days). */
export const ROTATION_OVERLAPS: readonly { seconds: number; label: string }[] = [
  { seconds: 24 * 3600, label: '24 hours' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 7 * 24 * 3600, label: '7 days' },
  { seconds: 0, label: 'none: the old secret stops now' },
];

export const WEBHOOK_FIELDS = ['url', 'events', 'description', 'enabled'] as const;
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];

/**
 * The field a webhook 400 is about: the service writes "url: ..." for a refused URL and
 * "invalid body: field 'description' ..." for a value its schema refuses.
 */
export function fieldOfMessage(message: string): WebhookField | undefined {
  const named = /^(\w+): /.exec(message)?.[1] ?? /(?:field|missing field) '(\w+)/.exec(message)?.[1];
  return WEBHOOK_FIELDS.find((field) => field === named);
}
