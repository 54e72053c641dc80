import createClient, { type Client } from 'openapi-fetch';
import type { operations, paths } from './schema.js';

export type * from './named-schemas.js';
export type { components, operations, paths, webhooks } from './schema.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEventType, type WebhookHeaders, type WebhookPayload } from './webhooks.js';

export interface WrsClientOptions {
  /** Where the service answers, e.g. `http://127.0.0.1:8080`; the paths begin with `/v1` or `/admin/v1`. */
  baseUrl: string;
  /** A company user's JWT, a record token, or the operator's WRS_ADMIN_TOKEN for `/admin/v1`. */
  token: string;
  /** The fetch to use; default the global one. */
  fetch?: typeof globalThis.fetch;
}

/** An openapi-fetch client typed by the service's OpenAPI document. */
export type WrsClient = Client<paths>;

/** A client that sends `Authorization: Bearer <token>` with every request. */
export function createWrsClient({ baseUrl, token, fetch }: WrsClientOptions): WrsClient {
  return createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${token}` },
    ...(fetch ? { fetch } : {}),
  });
}

type OperationId = keyof operations;
type StatusOf<Id extends OperationId> = keyof operations[Id]['responses'];
/** The JSON body an operation answers with a status. */
export type ResponseBody<Id extends OperationId, Status extends StatusOf<Id>> =
  operations[Id]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;

// Names for common bodies, taken from the operations that answer them; `named-schemas.js` adds
// one type per schema the document names (an export here of the same name wins). A record is
// also `WrsRecord`, so that importing it does not hide TypeScript's own `Record`.
export type Event = ResponseBody<'listEvents', 200>['results'][number];
export type EventsListResponse = ResponseBody<'listEvents', 200>;
export type EventTypeCount = ResponseBody<'listEventTypes', 200>['results'][number];
export type WrsRecord = ResponseBody<'getRecord', 200>;
export type RecordsListResponse = ResponseBody<'listRecords', 200>;
export type RecordType = ResponseBody<'getRecordType', 200>;
export type RecordTokenResponse = ResponseBody<'createRecordToken', 201>;
export type RecordTokenSummary = ResponseBody<'listRecordTokens', 200>['results'][number];
export type RecordStepResponse = ResponseBody<'runRecordStep', 200>;
export type StoredFile = ResponseBody<'listRecordFiles', 200>['results'][number];
export type Check = ResponseBody<'listChecks', 200>['results'][number];
export type ChecksListResponse = ResponseBody<'listChecks', 200>;
/** Every error answer: a message and a stable snake_case code, sometimes with details. */
export type ErrorResponse = ResponseBody<'getRecord', 404>;
/** The 400 of `POST /v1/records/{typeId}`: which fields were unknown, missing or of the wrong type. */
export type CreateRecordValidationError = Extract<ResponseBody<'createRecord', 400>, { code: 'validation_failed' }>;

/** Narrows an error of `POST /v1/records/{typeId}` to the validation failure and its lists of fields. */
export function isCreateRecordValidationError(error: { code: string }): error is CreateRecordValidationError {
  return error.code === 'validation_failed';
}
