import type { TestApp } from './test-app.js';

/** One operation of the OpenAPI document. */
export interface Operation {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As written in the document: `/v1/records/{record}`. */
  readonly path: string;
}

export const operationKey = (operation: { method: string; path: string }): string => `${operation.method} ${operation.path}`;

/** The operations the served OpenAPI document lists under a prefix (`/v1/` or `/admin/v1/`). */
export async function documentedOperations(t: TestApp, prefix: '/v1/' | '/admin/v1/'): Promise<Operation[]> {
  const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith(prefix))
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase() as Operation['method'], path })))
    .sort((a, b) => operationKey(a).localeCompare(operationKey(b)));
}

/** The path with each `{param}` replaced by its (encoded) value; throws when one is missing. */
export function fillPath(path: string, values: Readonly<Record<string, string>>): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}
