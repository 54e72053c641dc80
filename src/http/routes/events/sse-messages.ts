import type { ChangesPage } from '../../../domain/events/events-service.js';
import type { AppError } from '../../../errors/app-error.js';

const formatted = new WeakMap<ChangesPage, string>();

/**
 * A page of the change feed as Server-Sent Events: `id: <cursor>`, `event: event`,
 * `data: <Event JSON>` per event. Formatted once per page: every stream client at the same
 * position is handed the same page object, and so the same string.
 */
export function sseMessages(page: ChangesPage): string {
  let text = formatted.get(page);
  if (text !== undefined) return text;
  text = '';
  for (let i = 0; i < page.events.length; i++) {
    text += `id: ${page.cursors[i]}\nevent: event\ndata: ${page.events[i]}\n\n`;
  }
  formatted.set(page, text);
  return text;
}

export const SSE_PING = ': ping\n\n';

/** The stream's last message when it is ended by an error: `event: error`, the error body as data. */
export function sseError(error: AppError): string {
  return `event: error\ndata: ${JSON.stringify({ message: error.message, code: error.code })}\n\n`;
}
