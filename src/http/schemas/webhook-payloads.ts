import { Type, type TSchema } from '@sinclair/typebox';
import { RecordSchema } from '../../domain/records/record.js';
import type { WebhookEventType } from '../../domain/webhooks/event-types.js';
import { RecordTokenSummary } from '../routes/record-tokens/schemas.js';
import type { StepType } from '../../domain/steps/step-type.js';
import { stepSchemas } from '../routes/steps/schemas.js';
import { examplePdfCreated, exampleRecord, exampleRecordTokenSummary } from './examples.js';

/**
 * The body of each webhook delivery, `{type, timestamp, data}`, one schema per event type with
 * its `data` typed: the OpenAPI document's `webhooks` section (plugins/openapi-webhooks.ts) is
 * built from them, and test/webhooks checks real deliveries against them.
 */

export const DeletedRecordSchema = Type.Object(
  {
    id: Type.String({ description: 'the deleted record' }),
    record_type: Type.String(),
    uid: Type.Unknown({ description: "the record's uid as it was (the typeId of a custom record); null when it had none" }),
    deleted_at: Type.String({ format: 'date-time', description: 'when it was deleted' }),
  },
  { title: 'DeletedRecord', description: 'what is left of a deleted record: never its content' },
);

/** Built, as the route's schemas are, from the app's step types: the StepType and StepDetails components are the route's. */
function stepCompletedSchema(stepTypes: readonly StepType[]): TSchema {
  const { StepTypeName, StepDetails } = stepSchemas(stepTypes);
  return Type.Object(
    { record_id: Type.String(), type: StepTypeName, details: StepDetails },
    { title: 'StepCompleted', description: 'a step that stored its result: details as PUT /v1/records/{record}/steps answered them' },
  );
}

export const EventsIngestedSchema = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'events the ingest request stored' }),
    cursor: Type.String({ description: 'GET /v1/events/changes?after=<cursor> reads the batch' }),
  },
  { title: 'EventsIngested', description: 'one operator ingest request; the events themselves are read from the change feed' },
);

const EXAMPLE_TIMESTAMP = '2026-11-21T16:10:00.123Z';

export interface WebhookPayload {
  /** The component name of the delivery body. */
  readonly name: string;
  readonly summary: string;
  readonly data: TSchema;
  readonly example: unknown;
}

/** The payload of each event type, for an app that runs these step types. */
export function webhookPayloads(stepTypes: readonly StepType[]): Readonly<Record<WebhookEventType, WebhookPayload>> {
  return {
    'record.created': {
      name: 'RecordCreatedWebhook',
      summary: 'A record was created (POST /v1/records/{typeId}); data is the record as GET answers it',
      data: RecordSchema,
      example: exampleRecord,
    },
    'record.updated': {
      name: 'RecordUpdatedWebhook',
      summary: 'A record was changed (PATCH, or a reference to a deleted record removed); data is the record after the change',
      data: RecordSchema,
      example: { ...exampleRecord, status: 'approved' },
    },
    'record.deleted': {
      name: 'RecordDeletedWebhook',
      summary: 'A record was deleted (by a company user or the operator); data names it, never its content',
      data: DeletedRecordSchema,
      example: { id: exampleRecord.id, record_type: exampleRecord.record_type, uid: exampleRecord.uid, deleted_at: EXAMPLE_TIMESTAMP },
    },
    'record_token.created': {
      name: 'RecordTokenCreatedWebhook',
      summary: 'A record token was minted; data is the token as listed, without the JWT itself',
      data: RecordTokenSummary,
      example: exampleRecordTokenSummary,
    },
    'step.completed': {
      name: 'StepCompletedWebhook',
      summary: 'A step stored its result (pdf_create: the PDF)',
      data: stepCompletedSchema(stepTypes),
      example: { record_id: exampleRecord.id, type: 'pdf_create', details: examplePdfCreated.details },
    },
    'events.ingested': {
      name: 'EventsIngestedWebhook',
      summary: 'The operator ingested a batch of events; read them from the change feed at cursor',
      data: EventsIngestedSchema,
      example: { count: 250, cursor: '48LPEsD_fp2YKPctUE8Q68ljrwE5SoJH' },
    },
  };
}

/** The delivery body of one event type: the envelope every delivery shares, with its own `data`. */
export function webhookBodySchema(type: WebhookEventType, payload: WebhookPayload): TSchema {
  return Type.Object(
    {
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'when the change committed' }),
      data: payload.data,
    },
    { title: payload.name, description: payload.summary },
  );
}

export function webhookBodyExample(type: WebhookEventType, payload: WebhookPayload): unknown {
  return { type, timestamp: EXAMPLE_TIMESTAMP, data: payload.example };
}
