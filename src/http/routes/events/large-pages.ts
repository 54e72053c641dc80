import { finished } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LargePageSettings } from '../../../config/operations.js';
import { serviceUnavailable } from '../../../errors/app-error.js';
import { createFairSemaphore, SlotWaitTimeoutError, type SlotPermit } from '../../../lib/fair-semaphore.js';

/**
 * Pages over this many events are read from the database in chunks while they are sent, each
 * on a database connection and in a read transaction of its own; they take one of a few
 * places, which bounds the connections, transactions and memory that many clients asking for
 * large pages can take.
 */
export const LARGE_PAGE_EVENTS = 1000;

const RETRY_AFTER_SECONDS = 1;

export interface LargePages {
  /**
   * Builds a page in one of the company's places and keeps the place until the answer has
   * been handed to the network or the connection closed. Resolves `undefined` when the client
   * went away while waiting (there is no one to answer).
   */
  build<T>(companyId: string, request: FastifyRequest, reply: FastifyReply, page: () => Promise<T>): Promise<T | undefined>;
}

/**
 * Places are shared fairly between companies (lib/fair-semaphore.ts): a company holds at most
 * `perCompany` of them, so a client that reads nothing can stall only its own company's large
 * pages, and only until the send timeout cuts it off.
 */
export function createLargePages(settings: LargePageSettings): LargePages {
  const places = createFairSemaphore({ slots: settings.atOnce, slotsPerKey: settings.perCompany });

  const take = async (companyId: string, reply: FastifyReply): Promise<SlotPermit | undefined> => {
    const clientGone = new AbortController();
    const onClose = (): void => clientGone.abort();
    reply.raw.once('close', onClose);
    try {
      return await places.acquire(companyId, { timeoutMs: settings.waitMs, signal: clientGone.signal });
    } catch (error) {
      if (clientGone.signal.aborted) return undefined;
      if (error instanceof SlotWaitTimeoutError) {
        throw serviceUnavailable(
          `too many large event pages (over ${LARGE_PAGE_EVENTS} events) are being sent; retry shortly or ask for smaller pages`,
          RETRY_AFTER_SECONDS,
        );
      }
      throw error;
    } finally {
      reply.raw.off('close', onClose);
    }
  };

  // A client that does not read keeps the rest of the page in this process; past the bound its
  // connection is reset, which frees the page and the place (and the kernel's buffers).
  const holdUntilSent = (permit: SlotPermit, request: FastifyRequest, reply: FastifyReply): void => {
    const response = reply.raw;
    const deadline = setTimeout(() => {
      request.log.warn(
        { sendTimeoutMs: settings.sendTimeoutMs, bytesWritten: response.socket?.bytesWritten },
        'large event page not read within the send timeout: connection cut',
      );
      // An injected request (tests, light-my-request) has a socket stand-in without a reset.
      if (typeof response.socket?.resetAndDestroy === 'function') response.socket.resetAndDestroy();
      else response.destroy();
    }, settings.sendTimeoutMs);
    finished(response, () => {
      clearTimeout(deadline);
      permit.release();
    });
  };

  return {
    async build(companyId, request, reply, page) {
      const permit = await take(companyId, reply);
      if (!permit) {
        reply.hijack();
        return undefined;
      }
      try {
        const body = await page();
        holdUntilSent(permit, request, reply);
        return body;
      } catch (error) {
        permit.release();
        throw error;
      }
    },
  };
}
