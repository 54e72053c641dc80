/** NUL, or a UTF-16 surrogate without its other half. */
const NOT_STORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether both databases can store a string as it is: PostgreSQL text cannot hold NUL (the
 * statement fails), and a lone surrogate is not Unicode (drivers store U+FFFD instead, and
 * PostgreSQL's JSON parser refuses its escape).
 */
export const isStorableText = (value: string): boolean => !NOT_STORABLE.test(value);
