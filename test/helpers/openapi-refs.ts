/**
 * The OpenAPI document with every `#/components/schemas/...` reference replaced by the schema it
 * names (the use's own annotations kept over it), for tests that read a shape where it is used.
 */
export function withSchemasInline<T>(document: T): T {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {};
  const inline = (value: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, seen));
    if (typeof value !== 'object' || value === null) return value;
    const { $ref, ...rest } = value as Record<string, unknown>;
    const own = Object.fromEntries(Object.entries(rest).map(([key, child]) => [key, inline(child, seen)]));
    if (typeof $ref !== 'string' || !$ref.startsWith('#/components/schemas/')) return $ref === undefined ? own : { $ref, ...own };
    const name = $ref.slice('#/components/schemas/'.length);
    if (seen.includes(name)) throw new Error(`schema ${name} refers to itself`);
    return { ...(inline(schemas[name], [...seen, name]) as object), ...own };
  };
  return inline(document, []) as T;
}
