import type { AddressInfo } from 'node:net';
import { createWrsClient } from '../../clients/typescript/src/index.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestAppOptions } from '../helpers/test-app.js';
import type { ServiceUnderTest } from './service-under-test.js';

/** The real app on a fresh database, listening on 127.0.0.1 on a free port. */
export async function startListeningService(kind: DatabaseKind, options: TestAppOptions = {}): Promise<ServiceUnderTest> {
  // Without WRS_PUBLIC_URL the links in answers name the host and port the client called.
  const t = await createTestApp(kind, { ...options, env: { WRS_PUBLIC_URL: undefined as unknown as string, ...options.env } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const clientWith = (token: string) => createWrsClient({ baseUrl, token });
  return {
    baseUrl,
    clientWith,
    clientFor: async (companyId) => clientWith(await t.userToken(companyId)),
    operator: clientWith(TEST_ADMIN_TOKEN),
    close: () => t.close(),
  };
}
