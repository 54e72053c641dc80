import { Type, type Static } from '@sinclair/typebox';

/** The live event stream (GET /v1/events/stream). Part of the one environment schema in `config.ts`. */
export const StreamEnv = {
  WRS_STREAM_HEARTBEAT_MS: Type.Integer({ default: 15_000, minimum: 10, maximum: 3_600_000 }),
  WRS_STREAM_MAX_BUFFER_BYTES: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  WRS_STREAM_RECHECK_MS: Type.Integer({ default: 5000, minimum: 10, maximum: 600_000 }),
  WRS_STREAMS_PER_COMPANY: Type.Integer({ default: 50, minimum: 0 }),
};

const StreamEnvSchema = Type.Object(StreamEnv);
type StreamEnvValues = Static<typeof StreamEnvSchema>;

export interface StreamSettings {
  /** A `: ping` comment goes to every stream client this often. */
  readonly heartbeatMs: number;
  /** A client whose unsent bytes grow past this is dropped (it resumes with Last-Event-ID). */
  readonly maxBufferBytes: number;
  /** Companies with stream clients are read again this often even without a change signal. */
  readonly recheckMs: number;
  /** Streams one company may hold open at once in one process; one more is refused (429). 0 = no limit. */
  readonly perCompany: number;
}

export function streamSettings(env: StreamEnvValues): { readonly stream: StreamSettings } {
  return Object.freeze({
    stream: Object.freeze({
      heartbeatMs: env.WRS_STREAM_HEARTBEAT_MS,
      maxBufferBytes: env.WRS_STREAM_MAX_BUFFER_BYTES,
      recheckMs: env.WRS_STREAM_RECHECK_MS,
      perCompany: env.WRS_STREAMS_PER_COMPANY,
    }),
  });
}
