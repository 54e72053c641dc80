import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app.js';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  /** Metric family name to its TYPE. */
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
  /** The value of the one sample with this name whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample of a name whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${METRIC_NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_sum', '_count'];

/**
 * Parses the Prometheus text format (version 0.0.4) strictly: every line a HELP, a TYPE or a
 * sample of a declared family, every label value quoted, every value a number.
 */
export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const familyOf = (name: string): string | undefined => {
    if (types.has(name)) return name;
    const suffix = SUFFIXES.find((end) => name.endsWith(end));
    return suffix && types.has(name.slice(0, -suffix.length)) ? name.slice(0, -suffix.length) : undefined;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      assert.ok(TYPES.has(type[2]!), `unknown type: ${line}`);
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (new RegExp(`^# HELP ${METRIC_NAME} .+$`).test(line)) continue;
    const sample = SAMPLE_LINE.exec(line);
    assert.ok(sample, `not a line of the text format: ${line}`);
    const [, name, labelText = '', valueText] = sample;
    assert.ok(familyOf(name!), `sample of an undeclared metric: ${line}`);
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const label = LABEL.exec(labelText);
      assert.ok(label, `malformed labels: ${line}`);
      labels[label[1]!] = label[2]!;
    }
    // Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case (prom-client writes `Nan`).
    const special = /^([+-]?)(inf|nan)$/i.exec(valueText!);
    const value = special ? (special[2]!.toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity) : Number(valueText);
    assert.ok(special || (valueText !== '' && !Number.isNaN(value)), `not a number: ${line}`);
    samples.push({ name: name!, labels, value });
  }
  const includes = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value);
  const find = (name: string, labels: Record<string, string> = {}) => samples.filter((sample) => sample.name === name && includes(sample, labels));
  return {
    types,
    samples,
    find,
    value(name, labels = {}) {
      const found = find(name, labels);
      assert.ok(found.length <= 1, `${found.length} samples of ${name} ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

/** GET /metrics with a bearer (the operator's by default); asserts a 200 in the text format. */
export async function scrape(t: TestApp, token = TEST_ADMIN_TOKEN): Promise<Exposition & { readonly text: string }> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.statusCode, 200, response.body);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4(; charset=utf-8)?$/);
  return { ...parseExposition(response.body), text: response.body };
}
