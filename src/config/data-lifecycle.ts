import { Type, type Static } from '@sinclair/typebox';

/** Erasures and offboardings (docs/data-lifecycle.md). Part of the one environment schema in `config.ts`. */
export const DataLifecycleEnv = {
  WRS_LIFECYCLE_BATCH_ROWS: Type.Integer({ default: 1000, minimum: 1, maximum: 100_000 }),
};

const DataLifecycleEnvSchema = Type.Object(DataLifecycleEnv);
type DataLifecycleEnvValues = Static<typeof DataLifecycleEnvSchema>;

export interface DataLifecycleSettings {
  /** Rows an erasure or offboarding removes per transaction: short transactions, so the company's reads and writes go on between them. */
  readonly batchRows: number;
}

export function dataLifecycleSettings(env: DataLifecycleEnvValues): { readonly dataLifecycle: DataLifecycleSettings } {
  return Object.freeze({ dataLifecycle: Object.freeze({ batchRows: env.WRS_LIFECYCLE_BATCH_ROWS }) });
}
