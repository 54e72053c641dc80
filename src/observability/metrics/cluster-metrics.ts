import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const SCRAPE_REQUEST = 'wrs:metrics-scrape';
const SCRAPE_ANSWER = 'wrs:metrics-scraped';
/** prom-client's primary gives each worker 5 s to answer; a little more for the whole round trip. */
const ANSWER_LIMIT_MS = 6000;

interface ScrapeRequest {
  readonly type: typeof SCRAPE_REQUEST;
  readonly id: number;
}

interface ScrapeAnswer {
  readonly type: typeof SCRAPE_ANSWER;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T['type']): message is T =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/**
 * In the cluster primary (WRS_WORKERS > 1): answers a worker's scrape with every worker's
 * metrics added together (prom-client's AggregatorRegistry asks each worker for its own).
 * The workers share one port, so a scrape reaches any one of them; without this, its counters
 * would be that worker's alone and jump between scrapes.
 */
export function aggregateWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<ScrapeRequest>(message, SCRAPE_REQUEST)) return;
    const answer = (fields: Pick<ScrapeAnswer, 'text' | 'error'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPE_ANSWER, id: message.id, ...fields } satisfies ScrapeAnswer);
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** In a cluster worker: offers this registry to the primary's aggregation, and scrapes the whole cluster through it. */
export function clusterScrape(registry: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs the worker's answer to the primary's requests.
  new AggregatorRegistry();
  const pending = new Map<number, { resolve(text: string): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (!isMessage<ScrapeAnswer>(message, SCRAPE_ANSWER)) return;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    clearTimeout(waiter.timer);
    if (message.text !== undefined) waiter.resolve(message.text);
    else waiter.reject(new Error(`the cluster primary could not gather the workers' metrics: ${message.error}`));
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the cluster primary did not answer a metrics scrape within ${ANSWER_LIMIT_MS} ms`));
      }, ANSWER_LIMIT_MS);
      pending.set(id, { resolve, reject, timer });
      process.send!({ type: SCRAPE_REQUEST, id } satisfies ScrapeRequest);
    });
}
