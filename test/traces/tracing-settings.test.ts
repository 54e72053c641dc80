import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tracingOfThisProcess } from '../../src/cli/serve/tracing-choice.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const ENDPOINT = 'http://collector:4318';
const tracing = (env: NodeJS.ProcessEnv) => loadConfig(env).tracing;

describe('which OTEL_* variables turn tracing on', () => {
  const decisions: [string, NodeJS.ProcessEnv, boolean][] = [
    ['nothing set: off, not the SDK default of localhost:4318', {}, false],
    ['an OTLP endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }, true],
    ['an OTLP endpoint for traces only', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` }, true],
    ['an exporter named, with no endpoint (its default one)', { OTEL_TRACES_EXPORTER: 'otlp' }, true],
    ['the console exporter', { OTEL_TRACES_EXPORTER: 'console' }, true],
    ['exporter none beside an endpoint', { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }, false],
    [
      'OTEL_SDK_DISABLED=true beside an exporter and an endpoint',
      { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT },
      false,
    ],
    ['OTEL_SDK_DISABLED=false beside an endpoint', { OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }, true],
    ['an empty endpoint, as an unset one', { OTEL_EXPORTER_OTLP_ENDPOINT: '' }, false],
    ['only a service name or a sampler', { OTEL_SERVICE_NAME: 'api', OTEL_TRACES_SAMPLER: 'always_on' }, false],
  ];
  for (const [title, env, enabled] of decisions) {
    it(`${title}: ${enabled ? 'on' : 'off'}`, () => assert.equal(tracing(env).enabled, enabled));
  }
});

describe('the service name of the spans', () => {
  it('is wrs unless told otherwise', () => assert.equal(tracing({}).serviceName, 'wrs'));
  it('is OTEL_SERVICE_NAME, which wins over the resource attributes', () =>
    assert.equal(tracing({ OTEL_SERVICE_NAME: 'records-api', OTEL_RESOURCE_ATTRIBUTES: 'service.name=other' }).serviceName, 'records-api'));
  it('is service.name of OTEL_RESOURCE_ATTRIBUTES, percent-decoded', () =>
    assert.equal(tracing({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=wrs%20eu' }).serviceName, 'wrs eu'));
});

describe('malformed OTEL_* variables', () => {
  const malformed: NodeJS.ProcessEnv = {
    OTEL_TRACES_SAMPLER: 'sometimes',
    OTEL_TRACES_SAMPLER_ARG: '2',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http',
    OTEL_TRACES_EXPORTER: 'jaeger',
    OTEL_SDK_DISABLED: 'yes',
  };
  it('fail at boot, each named, rather than being ignored by the SDK with a warning', () => {
    assert.throws(
      () => loadConfig(malformed),
      (error: unknown) =>
        error instanceof ConfigError && Object.keys(malformed).every((name) => error.problems.some((problem) => problem.startsWith(`${name}:`))),
    );
  });
  it('accept the values the SDK knows', () => {
    const settings = tracing({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_EXPORTER: 'otlp, console',
    });
    assert.equal(settings.enabled, true);
  });
});

describe('which process traces', () => {
  const on = { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT };
  it('wrs serve does', () => assert.equal(tracingOfThisProcess(['serve'], on).enabled, true));
  it('an operator command does not', () => assert.equal(tracingOfThisProcess(['migrate'], on).enabled, false));
  it('the primary of a cluster, which serves no request, does not', () =>
    assert.equal(tracingOfThisProcess(['serve'], { ...on, WRS_WORKERS: '2' }).enabled, false));
  it('a configuration that does not load leaves it off, for the command to report', () =>
    assert.equal(tracingOfThisProcess(['serve'], { ...on, PORT: 'eighty' }).enabled, false));
});
