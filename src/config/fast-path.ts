import { Type, type Static } from '@sinclair/typebox';

/** The switch of src/fast-path/. Part of the one environment schema in `config.ts`. */
export const FastPathEnv = {
  WRS_FAST_PATH: Type.Boolean({ default: true }),
};

const FastPathEnvSchema = Type.Object(FastPathEnv);
type FastPathEnvValues = Static<typeof FastPathEnvSchema>;

export function fastPathSettings(env: FastPathEnvValues): { readonly fastPath: boolean } {
  return Object.freeze({ fastPath: env.WRS_FAST_PATH });
}
