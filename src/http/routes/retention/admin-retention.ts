import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { EventRetentionSchema, MAX_RETENTION_DAYS, type EventRetention } from '../../../domain/retention/event-retention.js';
import { CompanyParams } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';
import { withExample } from '../../schemas/examples.js';

const RetentionBody = Type.Object(
  {
    // One schema with two types rather than a union: Ajv's coercion would read 0 as the null branch.
    retention_days: Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      minimum: 1,
      maximum: MAX_RETENTION_DAYS,
      description: `days of events to keep (1 to ${MAX_RETENTION_DAYS}), or null to keep them forever whatever WRS_EVENT_RETENTION_DAYS says`,
    }),
  },
  { additionalProperties: false },
);

const example: EventRetention = { company_id: 'acme', retention_days: 30, source: 'company', deployment_default_days: null };
const answer = (description: string) => withExample(EventRetentionSchema, example, description);

/** A company's retention period of events (docs/data-lifecycle.md, "Retention of events"). */
export const adminRetentionRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/companies/:company/retention',
    {
      schema: {
        operationId: 'adminGetRetention',
        summary: "Show how long a company's events are kept",
        description: "The effective period and where it comes from: the company's own setting, else WRS_EVENT_RETENTION_DAYS, else forever.",
        tags: ['operator'],
        params: CompanyParams,
        response: { 200: answer('the effective retention period'), ...errorResponses(400, 401) },
      },
    },
    async (request) => ctx.retention.get(request.params.company),
  );

  app.put(
    '/companies/:company/retention',
    {
      schema: {
        operationId: 'adminPutRetention',
        summary: "Set how long a company's events are kept",
        description:
          'Events whose created_at is older than the period are removed by the next sweep (every WRS_RETENTION_SWEEP_INTERVAL_MS), ' +
          'in batches; null keeps them forever. Idempotent.',
        tags: ['operator'],
        params: CompanyParams,
        body: RetentionBody,
        response: { 200: answer('the effective retention period'), ...errorResponses(400, 401) },
      },
    },
    async (request) => ctx.retention.set(request.params.company, request.body.retention_days),
  );

  app.delete(
    '/companies/:company/retention',
    {
      schema: {
        operationId: 'adminDeleteRetention',
        summary: "Remove a company's own retention period",
        description: 'The company follows WRS_EVENT_RETENTION_DAYS again (forever when unset). Idempotent.',
        tags: ['operator'],
        params: CompanyParams,
        response: { 200: answer('the effective retention period'), ...errorResponses(400, 401) },
      },
    },
    async (request) => ctx.retention.clear(request.params.company),
  );
};
