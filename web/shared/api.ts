import { createWrsClient, type WrsClient } from '@wrs/client';
import { problemOf, NETWORK_PROBLEM, type ApiProblem } from './problems';

/** A typed client of this service (same origin) that sends the token with every request. */
export function apiClient(token: string): WrsClient {
  return createWrsClient({ baseUrl: location.origin, token });
}

export type ApiResult<T> = { ok: true; data: T; response: Response } | { ok: false; problem: ApiProblem; response?: Response };

/**
 * Runs one client call and answers its data or a problem to show. A failed fetch (offline,
 * connection reset) is a problem too, never an exception, so a page never loses what the user typed.
 */
export async function call<T>(run: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<ApiResult<T>> {
  try {
    const { data, error, response } = await run();
    if (response.ok) return { ok: true, data: data as T, response };
    return { ok: false, problem: problemOf(response.status, error), response };
  } catch {
    return { ok: false, problem: NETWORK_PROBLEM };
  }
}
