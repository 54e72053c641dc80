/** One delivery attempt as sent. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * The whole attempt ends at this bound, from connecting to the last byte of the answer read,
   * whatever the receiver is doing.
   */
  readonly timeoutMs: number;
}

/** Bytes of an answer's body read at most; the connection is closed rather than read further. */
export const ANSWER_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The receiver's status with the start of its body (at most `ANSWER_BODY_LIMIT_BYTES` of UTF-8,
 * invalid bytes replaced; what arrived before the bound when the body was cut short), or why no
 * status came (refused address, timeout, reset, ...).
 */
export type WebhookAnswer = { readonly statusCode: number; readonly body: string } | { readonly error: string };

/** Sends webhook requests: never follows redirects, and refuses addresses the URL rule forbids at connect time. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
  close(): void;
}
