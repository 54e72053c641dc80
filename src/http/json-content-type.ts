/** The content type of every JSON answer, also of those serialised by a route itself rather than by Fastify. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
