import type { WrsClient } from '../../clients/typescript/src/index.js';

/** Remembers each operation (`GET /v1/records/{record}`) the clients it watches have called. */
export interface OperationRecorder {
  watch(client: WrsClient): WrsClient;
  readonly called: ReadonlySet<string>;
}

export function createOperationRecorder(): OperationRecorder {
  const called = new Set<string>();
  return {
    called,
    watch(client) {
      client.use({
        onRequest({ request, schemaPath }) {
          called.add(`${request.method} ${schemaPath}`);
        },
      });
      return client;
    },
  };
}

/** The operationId of each operation of the served document under a prefix, keyed like the recorder's. */
export async function documentedOperationIds(baseUrl: string, prefix: string): Promise<Map<string, string>> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  const document = (await response.json()) as { paths: Record<string, Record<string, { operationId: string }>> };
  const ids = new Map<string, string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith(prefix)) continue;
    for (const [method, operation] of Object.entries(operations)) ids.set(`${method.toUpperCase()} ${path}`, operation.operationId);
  }
  return ids;
}
