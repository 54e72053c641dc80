import { Type, type TSchema } from '@sinclair/typebox';

const ETAG_HEADER = {
  etag: { type: 'string', description: 'the entity tag of this answer; send it back in If-None-Match (or If-Match on PATCH)' },
};

/** A `2xx` answer's schema, documented with its `ETag` header. */
export function withEtag<T extends TSchema>(schema: T): T {
  return { ...schema, headers: { ...(schema.headers as object | undefined), ...ETAG_HEADER } };
}

/** The headers of a response object written by hand (a download), with `ETag`. */
export const etagHeaders = ETAG_HEADER;

/** The `304` of a GET that honours If-None-Match. */
export const notModifiedResponse = {
  304: Type.Null({ description: 'Not Modified: If-None-Match names the current ETag; no body (the ETag header repeats it)' }),
};

const IF_NONE_MATCH = Type.Optional(
  Type.String({
    description: 'ETags of answers the client holds (or *): when one is current the answer is 304 with no body. Weak comparison.',
  }),
);

export const IfNoneMatchHeaders = Type.Object({ 'if-none-match': IF_NONE_MATCH });

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description: 'Update only if the record still has one of these ETags (strong comparison), or exists at all (*); otherwise 412 and nothing changes.',
    }),
  ),
});
