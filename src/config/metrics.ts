import { Type, type Static } from '@sinclair/typebox';

/** GET /metrics. Part of the one environment schema in `config.ts`. */
export const MetricsEnv = {
  WRS_METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
};

const MetricsEnvSchema = Type.Object(MetricsEnv);
type MetricsEnvValues = Static<typeof MetricsEnvSchema>;

export interface MetricsSettings {
  /** A bearer that reads GET /metrics and nothing else; WRS_ADMIN_TOKEN reads it as well. */
  readonly token: string | undefined;
}

export function metricsSettings(env: MetricsEnvValues): { readonly metrics: MetricsSettings } {
  return Object.freeze({ metrics: Object.freeze({ token: env.WRS_METRICS_TOKEN }) });
}
