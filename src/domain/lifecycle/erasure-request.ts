import { Type, type Static } from '@sinclair/typebox';
import { invalidBody } from '../../errors/app-error.js';

/** The body of an erasure request: the person, by `user_id` or its alias `user_key` (exactly one). */
export const ErasureRequestBody = Type.Object(
  {
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: "the value of the events' user_id" })),
    user_key: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'alias of user_id (as in the events filter)' })),
  },
  { additionalProperties: false },
);
export type ErasureRequest = Static<typeof ErasureRequestBody>;

/** The one value to erase; 400 when neither field or both are given. */
export function erasedUserId(body: ErasureRequest): string {
  const given = [body.user_id, body.user_key].filter((value) => value !== undefined);
  if (given.length === 0) throw invalidBody("invalid body: give the person's 'user_id' (or its alias 'user_key')");
  if (given.length === 2) throw invalidBody("invalid body: give 'user_id' or its alias 'user_key', not both");
  return given[0]!;
}
