import { Type } from '@sinclair/typebox';

/** The body of PUT .../providers/lob, and what `wrs provider lob` reads from a file or stdin. */
export const LobKeyBody = Type.Object(
  {
    api_key: Type.String({
      minLength: 16,
      maxLength: 256,
      // Printable ASCII without space or colon: the key is the user name of HTTP Basic auth.
      pattern: '^[\\x21-\\x39\\x3b-\\x7e]+$',
      description: 'the Lob secret API key (test_... or live_...); stored encrypted, never returned',
    }),
  },
  { additionalProperties: false },
);
