import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify, { type FastifySchemaCompiler } from 'fastify';
import { checkedByTheRoute } from '../../src/http/validator-compiler.js';
import { domainCheckedBody } from '../../src/http/routes/checks/domain-checked-body.js';
import { objectBodyValidator, optionalObjectBody } from '../../src/http/routes/records/object-body.js';

// A route whose validator hands back a `{ value }` for the headers makes Fastify store it on the
// request, and every later read of `request.headers` then copies all of them (a dozen reads on a
// list request). The validators of routes that check their own input leave every part as it came.
describe('route validators that leave input to the route', () => {
  const cases: [string, FastifySchemaCompiler<unknown>][] = [
    ['checkedByTheRoute', checkedByTheRoute],
    ['objectBodyValidator', objectBodyValidator],
    ['optionalObjectBody', optionalObjectBody.validatorCompiler],
    ['domainCheckedBody', domainCheckedBody],
  ];
  for (const [name, validatorCompiler] of cases) {
    it(`${name}: the request keeps its own headers, query and body`, async () => {
      const app = Fastify();
      app.post(
        '/things/:thing',
        {
          validatorCompiler,
          schema: {
            params: { type: 'object', properties: { thing: { type: 'string' } } },
            querystring: { type: 'object', properties: { limit: { type: 'integer' } } },
            headers: { type: 'object', properties: { 'if-match': { type: 'string' } } },
            body: { type: 'object' },
          },
        },
        async (request) => ({
          sameHeaders: request.headers === request.raw.headers,
          query: request.query,
          body: request.body,
          params: request.params,
        }),
      );
      const response = await app.inject({
        method: 'POST',
        url: '/things/t1?limit=5',
        headers: { 'if-match': '"x"' },
        payload: { a: 1 },
      });
      assert.equal(response.statusCode, 200, response.body);
      const answer = response.json();
      assert.equal(answer.sameHeaders, true);
      assert.deepEqual(answer.params, { thing: 't1' });
      assert.deepEqual(answer.body, { a: 1 });
      // The query as the parser gave it (a string): these validators never coerce.
      if (name !== 'domainCheckedBody') assert.deepEqual(answer.query, { limit: '5' });
      await app.close();
    });
  }

  it('objectBodyValidator still refuses a body that is not an object', async () => {
    const app = Fastify();
    app.post('/things', { validatorCompiler: objectBodyValidator, schema: { body: { type: 'object' } } }, async () => ({}));
    const response = await app.inject({ method: 'POST', url: '/things', payload: [1, 2] });
    assert.equal(response.statusCode, 400);
    assert.match(response.body, /must be a JSON object, not an array/);
    await app.close();
  });
});
