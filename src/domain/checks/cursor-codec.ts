import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { invalidQuery } from '../../errors/app-error.js';
import type { CheckProviderName, PagePosition } from './check-provider.port.js';

/** What an `after` / `before` cursor carries: who made it, for which order, and where. */
export interface CursorPayload {
  readonly provider: CheckProviderName;
  readonly direction: 'after' | 'before';
  /** The sort tag (`-date_created`, `send_date`, ...) the position belongs to. */
  readonly sort: string;
  readonly position: PagePosition;
}

export interface CursorCodec {
  encode(companyId: string, payload: CursorPayload): string;
  /** The payload of a cursor this service made for this company; otherwise a 400 naming `param`. */
  decode(companyId: string, cursor: string, param: 'after' | 'before'): CursorPayload;
}

/**
 * Opaque cursors: base64url JSON plus an HMAC over the company and the JSON, so a cursor cannot
 * be forged, edited, or replayed by another company; anything else answers 400.
 */
export function createCursorCodec(secret: Buffer): CursorCodec {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'wrs checks cursor v1', 32));
  const sign = (companyId: string, body: string) => createHmac('sha256', key).update(companyId).update('\n').update(body).digest().subarray(0, 16);

  return {
    encode(companyId, payload) {
      const body = Buffer.from(JSON.stringify({ p: payload.provider, d: payload.direction, s: payload.sort, x: payload.position })).toString('base64url');
      return `${body}.${sign(companyId, body).toString('base64url')}`;
    },
    decode(companyId, cursor, param) {
      const invalid = () => invalidQuery(`query parameter '${param}' is not a cursor from this service`, [param]);
      const [body, mac, extra] = cursor.split('.');
      if (!body || !mac || extra !== undefined) throw invalid();
      const expected = sign(companyId, body);
      const given = Buffer.from(mac, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let decoded: { p?: unknown; d?: unknown; s?: unknown; x?: unknown };
      try {
        decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      if ((decoded.p !== 'local' && decoded.p !== 'lob') || decoded.d !== param || typeof decoded.s !== 'string') {
        throw invalid();
      }
      return { provider: decoded.p, direction: param, sort: decoded.s, position: decoded.x };
    },
  };
}
