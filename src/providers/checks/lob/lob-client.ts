import { providerError, providerRateLimited, providerTimeout, type AppError } from '../../../errors/app-error.js';
import type { Clock } from '../../../lib/clock.js';
import { RetryBudget, rateLimitWaitMs, type LobRetryPolicy } from './retry-policy.js';

/** Lob's list envelope: `{data, object: "list", next_url, previous_url, count}`. */
export interface LobList {
  readonly data: Record<string, unknown>[];
  readonly next_url: string | null;
  readonly previous_url: string | null;
}

export interface LobClientOptions {
  readonly apiKey: string;
  /** e.g. https://api.lob.com/v1 (no trailing slash). */
  readonly baseUrl: string;
  /** Timeout of one HTTP call to Lob, body included. */
  readonly timeoutMs: number;
  readonly retry: LobRetryPolicy;
  readonly clock: Clock;
  readonly fetch?: typeof fetch;
}

export interface LobClient {
  /** GET {baseUrl}/{path}?{query}; retries within `budget`; every failure is an AppError. */
  list(path: string, query: URLSearchParams, budget: RetryBudget): Promise<LobList>;
  newBudget(): RetryBudget;
}

type Attempt = { kind: 'ok'; body: LobList } | { kind: 'retryable'; waitMs: number | undefined; failure: AppError; rateLimited: boolean };

export function createLobClient(options: LobClientOptions): LobClient {
  const doFetch = options.fetch ?? fetch;
  // Lob authenticates with HTTP Basic: the API key is the user name, the password is empty.
  const authorization = `Basic ${Buffer.from(`${options.apiKey}:`).toString('base64')}`;

  async function attempt(url: string): Promise<Attempt> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: 'GET',
        headers: { authorization, accept: 'application/json' },
        redirect: 'manual',
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) {
        throw providerTimeout(`Lob did not answer within ${options.timeoutMs} ms`, error);
      }
      return {
        kind: 'retryable',
        waitMs: undefined,
        rateLimited: false,
        failure: providerError('could not reach Lob', error),
      };
    }
    const status = response.status;
    if (status >= 200 && status < 300) return { kind: 'ok', body: parseList(text) };
    const detail = lobErrorDetail(text);
    if (status === 401 || status === 403) {
      throw providerError(`Lob refused the API key (${status}${detail})`);
    }
    if (status === 429) {
      const waitMs = rateLimitWaitMs(response.headers, options.clock.now().getTime());
      return { kind: 'retryable', waitMs, rateLimited: true, failure: rateLimited(waitMs) };
    }
    if (status >= 500 || status === 408) {
      return {
        kind: 'retryable',
        waitMs: undefined,
        rateLimited: false,
        failure: providerError(`Lob failed (${status}${detail})`),
      };
    }
    throw providerError(`Lob rejected the request (${status}${detail})`);
  }

  return {
    newBudget: () => new RetryBudget(options.retry),
    async list(path, query, budget) {
      const url = `${options.baseUrl}/${path}?${query.toString()}`;
      for (let retries = 0; ; retries += 1) {
        const outcome = await attempt(url);
        if (outcome.kind === 'ok') return outcome.body;
        const waitMs = outcome.waitMs ?? budget.backoffMs(retries);
        if (!(await budget.wait(waitMs, retries))) {
          throw outcome.rateLimited ? rateLimited(waitMs) : outcome.failure;
        }
      }
    },
  };
}

function rateLimited(waitMs: number | undefined): AppError {
  const seconds = Math.max(1, Math.ceil((waitMs ?? 1000) / 1000));
  return providerRateLimited(`Lob is rate limiting this account; retry in ${seconds} s`, seconds);
}

function parseList(text: string): LobList {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw providerError('Lob answered with something that is not JSON');
  }
  const list = body as Partial<Record<keyof LobList, unknown>> | null;
  const isUrl = (value: unknown) => value === undefined || value === null || typeof value === 'string';
  if (
    typeof list !== 'object' ||
    list === null ||
    !Array.isArray(list.data) ||
    !list.data.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)) ||
    !isUrl(list.next_url) ||
    !isUrl(list.previous_url)
  ) {
    throw providerError('Lob answered with an unexpected list shape');
  }
  return {
    data: list.data as Record<string, unknown>[],
    next_url: (list.next_url as string | null | undefined) || null,
    previous_url: (list.previous_url as string | null | undefined) || null,
  };
}

/** `: code: message` from Lob's error body `{error: {message, status_code, code}}`, when present. */
function lobErrorDetail(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    const code = typeof error?.code === 'string' ? error.code.slice(0, 60) : undefined;
    const message = typeof error?.message === 'string' ? error.message.slice(0, 200) : undefined;
    if (code && message) return `: ${code}: ${message}`;
    if (code || message) return `: ${code ?? message}`;
  } catch {
    // Not Lob's JSON error body: the status alone says enough.
  }
  return '';
}
