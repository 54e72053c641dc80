// How long one company's render takes while another company floods the renderer, through HTTP.
// Both companies render the demo template (`loan-summary`) with `PUT /v1/records/{record}/steps`;
// each request has its own connection, as separate clients would. Reports the bystander's
// renders alone, then during the flood (each started while the flood is still queued).
// Usage: node --import tsx bench/pdf-render-fairness.ts [flood renders, default 80] [KEY=VALUE settings...]
import { seedDemoRecords } from '../src/demo/demo-records.js';
import { DEMO_TEMPLATE_ID, seedDemoTemplates } from '../src/demo/demo-templates.js';
import { createTestApp } from '../test/helpers/test-app.js';

const args = process.argv.slice(2);
const floodSize = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 80);
const env = Object.fromEntries(args.filter((arg) => arg.includes('=')).map((arg) => arg.split('=', 2) as [string, string]));

const t = await createTestApp('sqlite', { env });
for (const company of ['flood', 'bystander']) {
  await seedDemoTemplates(t.ctx, company);
  await seedDemoRecords(t.ctx, company);
}
const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
const tokens = { flood: await t.userToken('flood'), bystander: await t.userToken('bystander') };

/** Seconds to the answer; a flood render refused for a full queue (503) counts as NaN. */
async function render(company: 'flood' | 'bystander'): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/v1/records/demo-loan-02/steps`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${tokens[company]}`, 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ type: 'pdf_create', inputs: { pdf_filename: 'out', template_id: DEMO_TEMPLATE_ID } }),
  });
  await response.text();
  if (company === 'flood' && response.status === 503) return Number.NaN;
  if (response.status !== 200) throw new Error(`${company}: ${response.status}`);
  return (performance.now() - started) / 1000;
}

const seconds = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
console.log(`threads ${t.ctx.pdfRenderer.workers}, renders per thread ${t.ctx.config.pdf.rendersPerThread}, flood ${floodSize}`);

await render('bystander');
const alone: number[] = [];
for (let n = 0; n < 8; n++) alone.push(await render('bystander'));
console.log(`bystander alone (s):       ${seconds(alone)}`);

const floodStarted = performance.now();
const flood = Array.from({ length: floodSize }, () => render('flood'));
const during: number[] = [];
await new Promise((resolve) => setTimeout(resolve, 300));
for (let n = 0; n < 4; n++) during.push(await render('bystander'));
const floodTimes = await Promise.all(flood);
console.log(`bystander during flood (s): ${seconds(during)}`);
const rendered = floodTimes.filter((time) => !Number.isNaN(time));
console.log(
  `flood: ${rendered.length} of ${floodSize} rendered (the rest 503) in ${((performance.now() - floodStarted) / 1000).toFixed(1)} s, each ${Math.min(...rendered).toFixed(2)}-${Math.max(...rendered).toFixed(2)} s`,
);
await t.close();
