/** One delivery attempt as sent. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The attempt ends (fails) at this bound, whatever the receiver is doing. */
  readonly timeoutMs: number;
}

/** The receiver's status, or why none came (refused address, timeout, reset, ...). */
export type WebhookAnswer = { readonly statusCode: number } | { readonly error: string };

/** Sends webhook requests: never follows redirects, and refuses addresses the URL rule forbids at connect time. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
  close(): void;
}
