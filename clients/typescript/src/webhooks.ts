import { Webhook } from 'standardwebhooks';
import type { operations, webhooks } from './schema.js';

type JsonAnswer<Id extends keyof operations, Status extends keyof operations[Id]['responses']> =
  operations[Id]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;

/** What a webhook may subscribe to, as `POST /v1/webhooks` lists them (`*` aside). */
export type WebhookEventType = Exclude<
  NonNullable<operations['createWebhook']['requestBody']>['content']['application/json']['events'][number],
  '*'
>;

/** The `data` of each delivery type, as docs/webhooks.md describes it, from the operations' answers. */
interface WebhookDataFromOperations {
  'record.created': JsonAnswer<'getRecord', 200>;
  'record.updated': JsonAnswer<'getRecord', 200>;
  'record.deleted': { id: string; record_type: string; uid: unknown; deleted_at: string };
  'record_token.created': JsonAnswer<'listRecordTokens', 200>['results'][number];
  'step.completed': {
    record_id: string;
    type: NonNullable<operations['runRecordStep']['requestBody']>['content']['application/json']['type'];
    details: JsonAnswer<'runRecordStep', 200>['details'];
  };
  'events.ingested': { count: number; cursor: string };
}

type DescribedBody<Item> = Item extends { post: { requestBody?: infer Body } }
  ? NonNullable<Body> extends { content: { 'application/json': infer Json } }
    ? Json
    : never
  : never;

/**
 * The body of a delivery of one type: the request body the document's `webhooks` section
 * describes for it when it has one, else `{type, timestamp, data}` with the data above.
 */
export type WebhookPayload<Type extends WebhookEventType = WebhookEventType> = {
  [T in Type]: string extends keyof webhooks
    ? { type: T; timestamp: string; data: WebhookDataFromOperations[T] }
    : T extends keyof webhooks
      ? DescribedBody<webhooks[T]>
      : { type: T; timestamp: string; data: WebhookDataFromOperations[T] };
}[Type];

/** The request's headers: a fetch `Headers`, or Node's `req.headers` (names in lower case). */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** The delivery is not from the service, is too old or too new, or is not a webhook body. */
export class WebhookVerificationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookVerificationError';
  }
}

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerOf(headers: WebhookHeaders, name: string): string {
  const value =
    typeof headers.get === 'function'
      ? (headers as { get(name: string): string | null }).get(name)
      : (headers as Record<string, string | string[] | undefined>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first !== 'string' || first === '') throw new WebhookVerificationError(`the ${name} header is missing`);
  return first;
}

function isPayload(body: unknown): body is WebhookPayload {
  if (typeof body !== 'object' || body === null) return false;
  const { type, timestamp } = body as { type?: unknown; timestamp?: unknown };
  return typeof type === 'string' && typeof timestamp === 'string' && 'data' in body;
}

/**
 * Checks a delivery with a webhook's secret (`whsec_...`) by the Standard Webhooks rules, using
 * the `standardwebhooks` package: one of the `webhook-signature` signatures must be the secret's
 * HMAC of `{webhook-id}.{webhook-timestamp}.{body}`, and the timestamp within five minutes of now.
 * Answers the parsed body, typed by its `type`; throws WebhookVerificationError otherwise.
 * `body` is the request's raw body as received: a re-serialized JSON object no longer matches.
 */
export function verifyWebhook(body: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookPayload {
  const signed = Object.fromEntries(SIGNED_HEADERS.map((name) => [name, headerOf(headers, name)]));
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  let parsed: unknown;
  try {
    parsed = new Webhook(secret).verify(text, signed);
  } catch (error) {
    throw new WebhookVerificationError(error instanceof Error ? error.message : 'the delivery does not verify', { cause: error });
  }
  if (!isPayload(parsed)) throw new WebhookVerificationError('the body is not a wrs webhook delivery ({type, timestamp, data})');
  return parsed;
}
