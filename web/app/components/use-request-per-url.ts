import { useEffect, useState } from 'preact/hooks';
import type { ApiResult } from '../../shared/api';
import { useConsole, type Console } from '../console-context';
import { signOutIfUnauthorized } from './session-expiry';

/**
 * The answer of one request per page address: runs it whenever `url` changes (the address is
 * its whole input), drops an answer that arrives after the address moved on, and signs out on
 * a 401. `undefined` while the answer for the current address is on its way, or when there is
 * nothing to request.
 */
export function useRequestPerUrl<T>(url: string, request: ((console: Console) => Promise<ApiResult<T>>) | undefined): ApiResult<T> | undefined {
  const console = useConsole();
  const [answer, setAnswer] = useState<{ url: string; result: ApiResult<T> }>();
  useEffect(() => {
    if (!request) return;
    let current = true;
    void request(console).then((result) => {
      if (current && !signOutIfUnauthorized(console, result)) setAnswer({ url, result });
    });
    return () => {
      current = false;
    };
    // The URL is the whole input of the request.
  }, [console, url]);
  return answer?.url === url ? answer.result : undefined;
}
