// The client's named types come from whatever components.schemas holds, under names TypeScript accepts.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { renderNamedSchemas, typeNameOf } from '../../scripts/client/named-schemas.js';

it('one type per schema, sorted, each the schema of that name', () => {
  const source = renderNamedSchemas({ components: { schemas: { WebhookDelivery: {}, Event: {}, Record: {}, ValidationError: {} } } });
  const exports = source.split('\n').filter((line) => line.startsWith('export '));
  assert.deepEqual(exports, [
    'export type Event = components[\'schemas\']["Event"];',
    'export type Record = components[\'schemas\']["Record"];',
    'export type ValidationError = components[\'schemas\']["ValidationError"];',
    'export type WebhookDelivery = components[\'schemas\']["WebhookDelivery"];',
  ]);
  assert.match(source, /^import type \{ components \} from '\.\/schema\.js';$/m);
});

it('a document without named schemas gives a module that exports nothing', () => {
  for (const document of [{}, { components: {} }, { components: { schemas: {} } }]) {
    const source = renderNamedSchemas(document);
    assert.deepEqual(
      source.split('\n').filter((line) => line.startsWith('export ') || line.startsWith('import ')),
      ['export {};'],
    );
  }
});

it('a schema name that is not an identifier becomes PascalCase; two names for one type are refused', () => {
  assert.equal(typeNameOf('Record'), 'Record');
  assert.equal(typeNameOf('record-token.summary'), 'RecordTokenSummary');
  assert.equal(typeNameOf('2fa-challenge'), 'Schema2faChallenge');
  assert.equal(typeNameOf('string'), 'String');
  assert.throws(() => renderNamedSchemas({ components: { schemas: { 'a-b': {}, AB: {} } } }), /'AB' and 'a-b' would both be the type AB/);
});
