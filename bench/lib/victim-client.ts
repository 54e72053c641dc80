// The victim's side of the fairness scenarios, run as its own process by bench/lib/fairness.ts so
// that the attacker's traffic, which the harness drives, does not delay the victim's timings in a
// shared event loop. Takes one JSON argument (a VictimJob), prints one JSON line: Samples[].
//   reads:   each path read one request at a time on its own kept-alive connection, for `seconds`;
//   renders: pdf_create steps one after another, for `seconds` and at least `atLeast` of them.
import { Agent, request } from 'node:http';
import { jsonRequest } from './http-client.js';

export type VictimJob =
  | { kind: 'reads'; baseUrl: string; token: string; seconds: number; paths: string[] }
  | { kind: 'renders'; baseUrl: string; token: string; seconds: number; atLeast: number; recordId: string; templateId: string };

export interface Samples {
  latenciesMs: number[];
  errors: number;
}

/** One GET; its time to the last byte, or undefined when it failed or answered other than 200. */
function timedGet(agent: Agent, url: string, token: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}` }, timeout: 30_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode === 200 ? performance.now() - started : undefined));
      response.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

async function reads(job: Extract<VictimJob, { kind: 'reads' }>): Promise<Samples[]> {
  const until = performance.now() + job.seconds * 1000;
  return Promise.all(
    job.paths.map(async (path) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const samples: Samples = { latenciesMs: [], errors: 0 };
      try {
        while (performance.now() < until) {
          const ms = await timedGet(agent, job.baseUrl + path, job.token);
          if (ms === undefined) samples.errors++;
          else samples.latenciesMs.push(ms);
        }
      } finally {
        agent.destroy();
      }
      return samples;
    }),
  );
}

async function renders(job: Extract<VictimJob, { kind: 'renders' }>): Promise<Samples[]> {
  const until = performance.now() + job.seconds * 1000;
  const samples: Samples = { latenciesMs: [], errors: 0 };
  while (performance.now() < until || samples.latenciesMs.length + samples.errors < job.atLeast) {
    const started = performance.now();
    const answered = await jsonRequest('PUT', `${job.baseUrl}/v1/records/${job.recordId}/steps`, job.token, {
      type: 'pdf_create',
      inputs: { pdf_filename: 'fairness.pdf', template_id: job.templateId },
    });
    if (answered.status === 200) samples.latenciesMs.push(performance.now() - started);
    else samples.errors++;
  }
  return [samples];
}

if (process.argv[2]) {
  const job = JSON.parse(process.argv[2]) as VictimJob;
  const result = job.kind === 'reads' ? await reads(job) : await renders(job);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
