import { isDeepStrictEqual } from 'node:util';

/**
 * Names the shared shapes of the OpenAPI document. A TypeBox schema's `title` is its name: the
 * route keeps validating and serialising with the very schema it declares (nothing about
 * validation changes), and the generated document lists each titled shape once under
 * `components.schemas`, each place that used it holding a `$ref` instead. Generators then emit
 * named types (`components["schemas"]["Record"]`) rather than anonymous ones.
 *
 * A title is a promise that the shape is the same wherever it appears: two different shapes
 * with one title stop the document from being built, so a name never means two things. Only
 * the annotations may differ between uses (a use says what the shape means there, with its own
 * example): they are kept beside the `$ref`, which OpenAPI 3.1 allows.
 */

type Json = unknown;
type JsonObject = { [key: string]: Json };

const SCHEMA_REF = '#/components/schemas/';
/** Example values are data, not schemas: a `title` in them names nothing. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);

const isObject = (value: Json): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema a component holds: without its `$id` (a name for the validator, not the document). */
function withoutId(schema: JsonObject): JsonObject {
  const { $id: _id, ...rest } = schema;
  return rest;
}

/** What a use may say of its own: what the shape means there, and an example of it there. */
const ANNOTATIONS = ['description', 'examples', 'example'] as const;

function withoutAnnotations(schema: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !(ANNOTATIONS as readonly string[]).includes(key)));
}

export class NamedSchemas {
  private readonly schemas: Record<string, JsonObject>;

  constructor(schemas: Record<string, JsonObject>) {
    this.schemas = schemas;
  }

  /** Registers a shape that no route uses (a webhook's payload) and answers its `$ref`. */
  reference(schema: object): JsonObject {
    return this.hoist(asSwaggerWritesIt(JSON.parse(JSON.stringify(schema)) as Json), true) as JsonObject;
  }

  /**
   * Replaces every titled schema inside `value` (children first) with a `$ref` to its component.
   * `routesWroteIt`: a shape a route already registered is taken as the route wrote it (a
   * schema given by hand may keep keywords @fastify/swagger rewrites).
   */
  hoist(value: Json, routesWroteIt = false): Json {
    if (Array.isArray(value)) return value.map((item) => this.hoist(item, routesWroteIt));
    if (!isObject(value)) return value;
    const hoisted: JsonObject = {};
    for (const [key, child] of Object.entries(value)) hoisted[key] = DATA_KEYS.has(key) ? child : this.hoist(child, routesWroteIt);
    const name = hoisted.title;
    if (typeof name !== 'string' || !looksLikeSchema(hoisted)) return hoisted;
    return this.register(name, withoutId(hoisted), routesWroteIt);
  }

  private register(name: string, schema: JsonObject, routesWroteIt: boolean): JsonObject {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`OpenAPI schema title ${JSON.stringify(name)} is not a PascalCase name`);
    const known = this.schemas[name];
    if (known === undefined) this.schemas[name] = schema;
    else if (!routesWroteIt && !isDeepStrictEqual(withoutAnnotations(known), withoutAnnotations(schema))) {
      throw new Error(`two different schemas are titled ${name}: give one of them another title\n${JSON.stringify(known)}\n${JSON.stringify(schema)}`);
    }
    const reference: JsonObject = { $ref: `${SCHEMA_REF}${name}` };
    const component = this.schemas[name]!;
    for (const annotation of ANNOTATIONS) {
      const own = schema[annotation];
      if (own !== undefined && !isDeepStrictEqual(own, component[annotation])) reference[annotation] = own;
    }
    return reference;
  }
}

const ANY_KEY = '^(.*)$';

/**
 * A schema as @fastify/swagger writes a route's: TypeBox's `Type.Record(Type.String(), V)` is
 * `patternProperties: {"^(.*)$": V}`, which it writes as `additionalProperties: V`, and a
 * `const` it writes as a one-value `enum`.
 */
function asSwaggerWritesIt(value: Json): Json {
  if (Array.isArray(value)) return value.map(asSwaggerWritesIt);
  if (!isObject(value)) return value;
  const written: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const pattern = key === 'patternProperties' && isObject(child) ? Object.keys(child) : [];
    if (pattern.length === 1 && pattern[0] === ANY_KEY) written.additionalProperties = asSwaggerWritesIt((child as JsonObject)[ANY_KEY]);
    else if (key === 'const') written.enum = [child];
    else written[key] = DATA_KEYS.has(key) ? child : asSwaggerWritesIt(child);
  }
  return written;
}

const SCHEMA_KEYWORDS = ['type', 'properties', 'anyOf', 'oneOf', 'allOf', 'items', '$ref', 'const', 'enum'];

/** A title also names an Info or a Tag object; only a schema becomes a component. */
function looksLikeSchema(value: JsonObject): boolean {
  return SCHEMA_KEYWORDS.some((keyword) => keyword in value);
}

/** Hoists the titled schemas of the document's paths into `components.schemas`, sorted by name. */
export function nameSharedSchemas(document: { paths?: unknown; components?: { schemas?: Record<string, unknown> } }): NamedSchemas {
  const schemas: Record<string, JsonObject> = {};
  const named = new NamedSchemas(schemas);
  document.paths = named.hoist(document.paths);
  document.components ??= {};
  document.components.schemas = schemas;
  return named;
}

/** Sorts the components by name once every schema is registered, so the document reads in order. */
export function sortComponents(document: { components?: { schemas?: Record<string, unknown> } }): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  document.components!.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
