import { Type, type Static } from '@sinclair/typebox';

/** Retention of events (docs/data-lifecycle.md). Part of the one environment schema in `config.ts`. */
export const RetentionEnv = {
  /** Days of events every company keeps unless it has a period of its own; unset: forever. */
  WRS_EVENT_RETENTION_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 36_500 })),
  WRS_RETENTION_SWEEP_INTERVAL_MS: Type.Integer({ default: 600_000, minimum: 1000, maximum: 86_400_000 }),
  WRS_RETENTION_BATCH_SIZE: Type.Integer({ default: 1000, minimum: 1, maximum: 50_000 }),
  WRS_RETENTION_BATCH_PAUSE_MS: Type.Integer({ default: 50, minimum: 0, maximum: 60_000 }),
};

const RetentionEnvSchema = Type.Object(RetentionEnv);
type RetentionEnvValues = Static<typeof RetentionEnvSchema>;

export interface RetentionSettings {
  /** The deployment's default period in days; undefined: events are kept forever. */
  readonly defaultDays: number | undefined;
  /** A sweep for events past their company's period starts this often. */
  readonly sweepIntervalMs: number;
  /** Events removed per transaction. */
  readonly batchSize: number;
  /** The pause after each batch, so that ingests get the writer between batches. */
  readonly batchPauseMs: number;
}

export function retentionSettings(env: RetentionEnvValues): { readonly retention: RetentionSettings } {
  return Object.freeze({
    retention: Object.freeze({
      defaultDays: env.WRS_EVENT_RETENTION_DAYS,
      sweepIntervalMs: env.WRS_RETENTION_SWEEP_INTERVAL_MS,
      batchSize: env.WRS_RETENTION_BATCH_SIZE,
      batchPauseMs: env.WRS_RETENTION_BATCH_PAUSE_MS,
    }),
  });
}
