import { Type, type Static } from '@sinclair/typebox';

/**
 * OpenTelemetry traces, read from the standard `OTEL_*` variables. Part of the one environment
 * schema in `config.ts`. Only what decides whether tracing runs, and under which name, is
 * mapped onto settings; the SDK reads the other standard variables it knows (endpoint headers,
 * timeouts, sampler, propagators) itself, and the values checked here fail at boot instead of
 * being ignored with a warning.
 */
export const TracingEnv = {
  OTEL_SDK_DISABLED: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  OTEL_TRACES_EXPORTER: Type.Optional(Type.String({ pattern: '^\\s*(otlp|console|zipkin|none)\\s*(,\\s*(otlp|console|zipkin|none)\\s*)*$' })),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  OTEL_EXPORTER_OTLP_PROTOCOL: Type.Optional(OtlpProtocol()),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: Type.Optional(OtlpProtocol()),
  OTEL_SERVICE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  OTEL_RESOURCE_ATTRIBUTES: Type.Optional(Type.String()),
  OTEL_TRACES_SAMPLER: Type.Optional(
    Type.Union(
      ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'].map((name) =>
        Type.Literal(name),
      ),
    ),
  ),
  OTEL_TRACES_SAMPLER_ARG: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
};

function OtlpProtocol() {
  return Type.Union([Type.Literal('grpc'), Type.Literal('http/protobuf'), Type.Literal('http/json')]);
}

const TracingEnvSchema = Type.Object(TracingEnv);
type TracingEnvValues = Static<typeof TracingEnvSchema>;

export interface TracingSettings {
  /** Whether this process starts the OpenTelemetry SDK at all; off, not one of its modules is loaded. */
  readonly enabled: boolean;
  /** `service.name` of every span. */
  readonly serviceName: string;
}

export const DEFAULT_SERVICE_NAME = 'wrs';

/**
 * On when an exporter is named (`OTEL_TRACES_EXPORTER` other than `none`) or, with no exporter
 * named, when an OTLP endpoint is given; `OTEL_SDK_DISABLED=true` turns it off whatever else is
 * set. The SDK's own default (OTLP to localhost:4318 with no variable at all) is not followed:
 * a service that nobody asked to trace sends nothing and pays nothing.
 */
export function tracingSettings(env: TracingEnvValues): TracingSettings {
  return Object.freeze({ enabled: tracingEnabled(env), serviceName: serviceName(env) });
}

function tracingEnabled(env: TracingEnvValues): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(',').map((name) => name.trim());
  if (exporters !== undefined) return exporters.some((name) => name !== 'none');
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined;
}

/** OTEL_SERVICE_NAME, else a `service.name` in OTEL_RESOURCE_ATTRIBUTES, else `wrs`. */
function serviceName(env: TracingEnvValues): string {
  if (env.OTEL_SERVICE_NAME !== undefined) return env.OTEL_SERVICE_NAME;
  for (const pair of env.OTEL_RESOURCE_ATTRIBUTES?.split(',') ?? []) {
    const [key, value] = pair.split('=', 2).map((part) => part.trim());
    if (key === 'service.name' && value) return percentDecoded(value);
  }
  return DEFAULT_SERVICE_NAME;
}

function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
