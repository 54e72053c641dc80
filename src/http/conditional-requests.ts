import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RecordMatch } from '../domain/records/record-tag.js';
import { invalidHeader } from '../errors/app-error.js';

/** An entity tag as RFC 9110 §8.8.3 writes it: `"opaque"`, or `W/"opaque"` when weak. */
interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

type TagCondition = '*' | readonly EntityTag[];

type ConditionalHeader = 'If-Match' | 'If-None-Match';

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"/;
const OWS = /^[ \t]*/;
const SHOWN_VALUE_CHARS = 100;

/** A strong ETag for a representation identified by `opaque` (byte for byte the same answer). */
export const strongEtag = (opaque: string): string => `"${opaque}"`;

/**
 * Content codings a strong tag is suffixed with: `"abc.gzip"` names the gzip body of the
 * representation whose identity body is `"abc"`. The dot is outside base64url and hex, so the
 * suffix never clashes with a tag of its own.
 */
const CODING_SUFFIX = /\.(gzip|br)$/;

/** The strong ETag of `etag`'s representation sent in a content coding; a weak tag stays as it is. */
export function encodedEtag(etag: string, coding: string): string {
  const tag = parseEntityTag(etag);
  return tag.weak ? etag : strongEtag(`${tag.opaque}.${coding}`);
}

/** The identity tag a coding's tag was made from (`abc.gzip` -> `abc`). */
const identityOpaque = (opaque: string): string => opaque.replace(CODING_SUFFIX, '');

/**
 * A weak ETag naming what an answer was built from (a data version and the request), hashed:
 * equal tags mean the same answer, though not necessarily the same bytes (compression).
 */
export function weakEtagOf(parts: readonly unknown[]): string {
  return `W/"${hash('sha256', JSON.stringify(parts), 'base64url')}"`;
}

/**
 * Sets `etag` on the reply and tells whether the request's If-None-Match names it (weak
 * comparison, RFC 9110 §13.1.2) or is `*`: then the answer is sendNotModified. A malformed
 * If-None-Match is a 400.
 */
export function heldByClient(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  const condition = tagCondition('If-None-Match', request.headers['if-none-match']);
  reply.header('etag', etag);
  if (condition === undefined) return false;
  const { opaque } = parseEntityTag(etag);
  if (condition === '*') return true;
  const held = condition.find((tag) => identityOpaque(tag.opaque) === opaque);
  if (held === undefined) return false;
  // The 304 names the representation the client holds: a coding's tag is repeated as sent.
  if (!held.weak && held.opaque !== opaque) reply.header('etag', strongEtag(held.opaque));
  return true;
}

/** The 304: no body at all (not even the `null` a response schema would serialise). */
export function sendNotModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).send();
}

/** heldByClient, and the 304 sent when it is: true when the request is answered. */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  if (!heldByClient(request, reply, etag)) return false;
  sendNotModified(reply);
  return true;
}

/**
 * The request's If-Match for a write: undefined when absent; else `*` or the strong tags it
 * names (strong comparison, RFC 9110 §13.1.1: a weak tag never matches). A malformed value is a 400.
 */
export function ifMatchOf(request: FastifyRequest): RecordMatch | undefined {
  const condition = tagCondition('If-Match', request.headers['if-match']);
  if (condition === undefined) return undefined;
  if (condition === '*') return { any: true };
  // Every coding's tag names the record's current state: If-Match with the tag of the gzip or br
  // body a GET answered matches as the identity one does (each is strong: no weak tag matches).
  return { tags: condition.filter((tag) => !tag.weak).map((tag) => identityOpaque(tag.opaque)) };
}

/** Parses `*` or a comma-separated list of entity tags (empty list elements allowed, as in any HTTP list). */
function tagCondition(name: ConditionalHeader, value: string | string[] | undefined): TagCondition | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(', ') : value;
  if (text.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  let rest = text.replace(OWS, '');
  while (rest.length > 0) {
    if (rest.startsWith(',')) {
      rest = rest.slice(1).replace(OWS, '');
      continue;
    }
    const match = ENTITY_TAG.exec(rest);
    if (!match) throw malformed(name, text);
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
    rest = rest.slice(match[0].length).replace(OWS, '');
    if (rest.length > 0 && !rest.startsWith(',')) throw malformed(name, text);
  }
  if (tags.length === 0) throw malformed(name, text);
  return tags;
}

function parseEntityTag(etag: string): EntityTag {
  const match = ENTITY_TAG.exec(etag);
  if (!match || match[0].length !== etag.length) throw new Error(`not an entity tag: ${etag}`);
  return { weak: match[1] !== undefined, opaque: match[2]! };
}

function malformed(name: ConditionalHeader, value: string) {
  const shown = value.length > SHOWN_VALUE_CHARS ? `${value.slice(0, SHOWN_VALUE_CHARS)}...` : value;
  return invalidHeader(
    `${name} must be * or a comma-separated list of quoted entity tags, such as "abc" or W/"abc" (the ETag of an answer); got ${JSON.stringify(shown)}`,
    name,
  );
}
