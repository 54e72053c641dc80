import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with its attributes made a plain object. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP's enum: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly scope: string;
  readonly serviceName: unknown;
  readonly attributes: Readonly<Record<string, unknown>>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: {
      scope: { name: string };
      spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[];
    }[];
  }[];
}

function plain(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]));
}

/** An OTLP/HTTP receiver on 127.0.0.1 that keeps what is POSTed to /v1/traces (JSON protocol). */
export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  readonly endpoint: string;
  /** Requests received on any path, for the tests that expect none. */
  readonly requests: number;
  spans(): ReceivedSpan[];
  /** Resolves with the spans once `ready` holds for them; rejects after `timeoutMs`. */
  waitForSpans(ready: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        for (const resourceSpans of (JSON.parse(body) as OtlpExport).resourceSpans) {
          const serviceName = plain(resourceSpans.resource.attributes)['service.name'];
          for (const { scope, spans } of resourceSpans.scopeSpans) {
            for (const span of spans) {
              received.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                kind: span.kind,
                scope: scope.name,
                serviceName,
                attributes: plain(span.attributes),
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    spans: () => [...received],
    async waitForSpans(ready, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ready([...received])) {
        if (Date.now() > deadline) throw new Error(`spans never arrived; received: ${received.map((span) => span.name).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return [...received];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
