import type { TSchema } from '@sinclair/typebox';

/** A `201` answer's schema, documented with its `Location` header (the created resource's URL). */
export function createdWithLocation<T extends TSchema>(schema: T, description: string): T {
  return {
    ...schema,
    description,
    headers: { location: { type: 'string', format: 'uri', description: 'absolute URL of the created resource' } },
  };
}
