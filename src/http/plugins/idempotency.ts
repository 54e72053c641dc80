import { PassThrough, Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { NDJSON_MEDIA_TYPES } from '../../contracts/ndjson.js';
import { IDEMPOTENCY_KEY_FORMS, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_RULE, parseIdempotencyKey } from '../../domain/idempotency/idempotency-key.js';
import type { HeldKey, IdempotencyService } from '../../domain/idempotency/idempotency-service.js';
import { isKept, type KeptAnswer } from '../../domain/idempotency/kept-answer.js';
import { createRequestFingerprint, fingerprintOf } from '../../domain/idempotency/request-fingerprint.js';
import { idempotencyKeyInUse, idempotencyKeyReused, invalidHeader } from '../../errors/app-error.js';
import { readJsonItems } from '../../lib/json-items.js';
import { ErrorResponse } from '../schemas/errors.js';
import { prependRouteHook } from '../route-hooks.js';
import { identityOf } from './authenticate.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Opts the route in to Idempotency-Key: the scope its keys live in (routes that are one
     * operation share a scope, as /tokens and /actions do), e.g. `config: { idempotency: 'webhooks.create' }`.
     */
    idempotency?: string;
  }
}

/** The headers of an answer that a replay gives again. */
const KEPT_HEADERS = ['content-type', 'location', 'etag'] as const;
export const REPLAYED_HEADER = 'idempotent-replayed';

interface Running {
  readonly held: HeldKey;
  /** The request's fingerprint; for a streamed body, once it has been read to its end (else null). */
  readonly fingerprint: () => Promise<string | null>;
}

/**
 * Idempotency-Key on the routes that opt in (route config `idempotency`): the first request with a
 * key claims it in the database (one atomic insert) and runs; its answer is kept for 24 hours and
 * replayed, with `Idempotent-Replayed: true`, to a retry of the same request; another request
 * with that key is a 422, and a retry while the first still runs a 409. Answers of 5xx, 409 and
 * 429 are not kept. The company is the caller's, or the one in an operator path.
 */
export function registerIdempotency(app: FastifyInstance, service: IdempotencyService): void {
  const running = new WeakMap<FastifyRequest, Running>();

  // The hooks are the routes' own: a route that takes no key runs none of them. They run first
  // among a route's hooks, so a request is admitted before the route checks its body, and its
  // answer is kept as sent, before compression.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotency) return;
    documentIdempotency(route);
    prependRouteHook(route, 'preValidation', admitKeyed);
    prependRouteHook(route, 'onSend', keepKeyedAnswer);
    prependRouteHook(route, 'onResponse', abandonUnkept);
  });

  // Only a request with a key waits for anything.
  function admitKeyed(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    const scope = request.routeOptions.config.idempotency;
    const header = request.headers['idempotency-key'];
    if (!scope || header === undefined) return done();
    admit(request, reply, scope, header).then(() => done(), done);
  }

  async function admit(request: FastifyRequest, reply: FastifyReply, scope: string, header: string | string[]): Promise<unknown> {
    const parsed = parseIdempotencyKey(header);
    if ('problem' in parsed) throw invalidHeader(parsed.problem, 'Idempotency-Key');
    const target = { companyId: companyOf(request), scope, key: parsed.key };

    const streamed = request.body instanceof Readable ? request.body : undefined;
    const ndjson = NDJSON_MEDIA_TYPES.includes(request.mediaType ?? '');
    const known = streamed ? undefined : fingerprintOf(request.params, request.body);
    const admission = await service.admit(target, known ?? (() => streamFingerprint(request.params, streamed!, ndjson)));

    switch (admission.kind) {
      case 'replay':
        return replay(reply, admission.answer);
      case 'reused':
        throw idempotencyKeyReused(
          `${IDEMPOTENCY_KEY_HEADER} '${parsed.key}' was used with another request (another body or path); send a new key for a new request`,
        );
      case 'in_use':
        // An unread streamed body is not drained: the connection closes after the answer.
        if (streamed) reply.header('connection', 'close');
        throw idempotencyKeyInUse(
          `a request with ${IDEMPOTENCY_KEY_HEADER} '${parsed.key}' is still running; retry after ${admission.retryAfterSeconds} s`,
          admission.retryAfterSeconds,
        );
      case 'run': {
        if (known !== undefined) {
          running.set(request, { held: admission.held, fingerprint: async () => known });
          return;
        }
        const { body, fingerprint } = fingerprintWhileRead(request.params, streamed!, ndjson);
        (request as { body: unknown }).body = body;
        running.set(request, { held: admission.held, fingerprint });
        return;
      }
    }
  }

  function keepKeyedAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
    const run = running.get(request);
    if (!run) return done(null, payload);
    running.delete(request);
    keepAnswer(request, reply, run, payload).then(() => done(null, payload));
  }

  async function keepAnswer(request: FastifyRequest, reply: FastifyReply, run: Running, payload: unknown): Promise<void> {
    try {
      const fingerprint = typeof payload === 'string' || Buffer.isBuffer(payload) ? await run.fingerprint() : null;
      if (!isKept(reply.statusCode) || fingerprint === null) {
        await run.held.release();
      } else {
        await run.held.keep(answerOf(reply, payload as string | Buffer), fingerprint);
      }
    } catch (error) {
      // The answer still goes out; the key's lease runs out and a retry may run again.
      run.held.abandon();
      request.log.error({ err: error }, 'idempotency: could not keep the answer');
    }
  }

  // A request whose response ended before its answer was kept (client gone): stop renewing, so
  // the lease frees the key unless the answer is still kept when the handler ends.
  function abandonUnkept(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
    running.get(request)?.held.abandon();
    done();
  }

  const stopCleanup = service.startCleanup((error) => app.log.error({ err: error }, 'idempotency: cleanup of expired keys failed'));
  app.addHook('onClose', async () => stopCleanup());
}

function companyOf(request: FastifyRequest): string {
  const company = (request.params as { company?: unknown } | undefined)?.company;
  if (request.routeOptions.url?.startsWith('/admin/') && typeof company === 'string') return company;
  return identityOf(request).companyId;
}

function replay(reply: FastifyReply, answer: KeptAnswer): FastifyReply {
  reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, 'true');
  return reply.send(answer.body);
}

function answerOf(reply: FastifyReply, payload: string | Buffer): KeptAnswer {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body: typeof payload === 'string' ? payload : payload.toString('utf8') };
}

/** Reads a whole streamed body (a retry that must be compared) into its fingerprint. */
async function streamFingerprint(params: unknown, stream: Readable, ndjson: boolean): Promise<string> {
  const fingerprint = createRequestFingerprint(params);
  await addItems(fingerprint, stream, ndjson);
  return fingerprint.digest();
}

async function addItems(fingerprint: ReturnType<typeof createRequestFingerprint>, source: Readable, ndjson: boolean): Promise<void> {
  try {
    for await (const item of readJsonItems(source, ndjson ? 'ndjson' : 'array')) {
      if ('problem' in item) fingerprint.add('unreadable', item.problem);
      else fingerprint.add('item', item.value);
    }
  } catch (error) {
    fingerprint.add('broken', (error as Error).message);
    // Read on to the end, so that the route's own reader is never held back.
    for await (const _chunk of source) void _chunk;
  }
}

/**
 * Gives the route a copy of the streamed body while the fingerprint reads the other, item by
 * item, never holding the whole body. The fingerprint is known only when the route read the body
 * to its end; a request refused before that is not kept (its key is released).
 */
function fingerprintWhileRead(params: unknown, source: Readable, ndjson: boolean): { body: Readable; fingerprint: () => Promise<string | null> } {
  const forRoute = new PassThrough();
  const forFingerprint = new PassThrough();
  let ended = false;
  source.on('end', () => {
    ended = true;
  });
  source.on('error', (error) => {
    forRoute.destroy(error);
    forFingerprint.destroy(error);
  });
  source.pipe(forRoute);
  source.pipe(forFingerprint);
  const fingerprint = createRequestFingerprint(params);
  const reading = addItems(fingerprint, forFingerprint, ndjson).then(
    () => true,
    () => false,
  );
  return {
    body: forRoute,
    fingerprint: async () => {
      if (!ended) {
        forFingerprint.destroy();
        return null;
      }
      return (await reading) ? fingerprint.digest() : null;
    },
  };
}

// The quoted form may be up to 512 characters (255 escaped ones and the quotes); the key it
// names is checked before validation, with a message that says which rule it breaks.
const KeyHeader = Type.String({
  minLength: 1,
  maxLength: 512,
  pattern: '^[\\x21-\\x7E]+$',
  description:
    `Makes the request safe to retry: the first request with a key runs and its answer is kept 24 hours; a retry with ` +
    `the same key and the same request gets that answer again (header Idempotent-Replayed: true) and nothing runs twice. ` +
    `The same key with another body or path: 422 idempotency_key_reused; while the first still runs: 409 ` +
    `idempotency_key_in_use with Retry-After. The key: ${IDEMPOTENCY_KEY_RULE}, ${IDEMPOTENCY_KEY_FORMS}.`,
});

const KEY_ANSWERS: Record<string, string> = {
  409: 'idempotency_key_in_use: a request with this Idempotency-Key is still running (Retry-After)',
  422: 'idempotency_key_reused: this Idempotency-Key was used with another request',
};

/** Adds the header and the 409/422 answers to the route's schema (validation and OpenAPI). */
function documentIdempotency(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const headers = (schema.headers ?? Type.Object({})) as { properties?: Record<string, unknown>; required?: string[] };
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const added = Object.fromEntries(
    Object.entries(KEY_ANSWERS)
      .filter(([status]) => !(status in response))
      .map(([status, description]) => [status, { ...ErrorResponse, description }]),
  );
  route.schema = {
    ...schema,
    headers: { ...headers, type: 'object', properties: { ...headers.properties, 'idempotency-key': KeyHeader } },
    response: { ...response, ...added },
  };
}
