import { Type } from '@sinclair/typebox';

/** The body of every non-2xx answer. */
export const ErrorResponse = Type.Object(
  {
    message: Type.String({ description: 'human-readable description' }),
    code: Type.String({ description: 'stable machine-readable code, snake_case' }),
    invalid_params: Type.Optional(Type.Array(Type.String(), { description: 'query parameters at fault (400 on queries)' })),
    request_id: Type.Optional(Type.String({ description: 'the x-request-id of a failed request (500)' })),
    accepted: Type.Optional(Type.Array(Type.String(), { description: 'the media types the route reads (415)' })),
  },
  { additionalProperties: true, $id: 'ErrorResponse', title: 'Error' },
);

/** The generic description of each error status (an operation may say more). */
export const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'bad request',
  401: 'missing or invalid credential',
  403: 'the credential may not do this',
  404: 'not found',
  410: 'gone: a change-feed cursor from before events the retention period removed (feed_cursor_expired); start again from the beginning or from now',
  412: 'precondition failed: If-Match names no current tag; nothing was changed',
  413: 'payload too large',
  415: 'unsupported media type, content encoding or charset',
  422: 'understood but cannot be processed',
  429: 'rate limited',
  500: 'internal error',
  502: 'provider error',
  503: 'unavailable',
  504: 'provider timeout',
};

/** Response schemas for the error statuses a route can answer, for validation and OpenAPI. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, { ...ErrorResponse, description: ERROR_DESCRIPTIONS[status] ?? 'error' }]));
}
