import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE, MEMO_TYPE, putTemplate } from './fixtures/records.js';

// The real pdfme renderer on one thread. Company A fills a page-sized text box with record data
// just under the input cap (the slowest a record may make a render); company B renders a one-line
// template meanwhile.
const INPUT_LIMIT = 32_768;
const RENDER_TIMEOUT_MS = 5000;
const ATTACK_RENDERS = 16;

const A4 = { width: 210, height: 297, padding: [10, 10, 10, 10] };
const pageOfNotes = {
  basePdf: A4,
  schemas: [[{ name: 'note', type: 'text', content: 'note', position: { x: 20, y: 20 }, width: 170, height: 250, fontSize: 10 }]],
};
const oneLine = {
  basePdf: A4,
  schemas: [[{ name: 'customer', type: 'text', content: 'ACME', position: { x: 20, y: 20 }, width: 170, height: 10, fontSize: 12 }]],
};

const words = (bytes: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27)).slice(0, bytes);

describeEachDatabase('PDF renders shared fairly between companies over HTTP', (kind) => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createTestApp(kind, {
      env: {
        WRS_PDF_WORKERS: '1',
        // One place: the order of service is the fair queue's alone. With several renders
        // interleaved on the thread, when each one ends also depends on its neighbours' CPU.
        WRS_PDF_RENDERS_PER_THREAD: '1',
        WRS_PDF_TIMEOUT_MS: String(RENDER_TIMEOUT_MS),
        WRS_PDF_INPUT_LIMIT_BYTES: String(INPUT_LIMIT),
      },
    });
    await defineRecordType(t, 'attacker', 'memo', MEMO_TYPE);
    await putTemplate(t, 'attacker', 'notes', pageOfNotes);
    await defineRecordType(t, 'bystander', 'invoice', INVOICE_TYPE);
    await putTemplate(t, 'bystander', 'line', oneLine);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  /** One render asked for over its own connection, as separate clients would. */
  const pdfCreate = async (company: string, recordId: string, templateId: string) => {
    const response = await fetch(`${base}/v1/records/${recordId}/steps`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await t.userToken(company)}`, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ type: 'pdf_create', inputs: { pdf_filename: 'out', template_id: templateId } }),
    });
    const body = await response.text();
    return { statusCode: response.status, headers: response.headers, body, json: () => JSON.parse(body) };
  };

  const fileCount = async (company: string, recordId: string) =>
    Number(
      (
        await t.ctx.database.db
          .selectFrom('record_files')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', company)
          .where('record_id', '=', recordId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a record whose data is over the cap before rendering: 422 naming the limit and the size, nothing stored', async () => {
    const record = await createRecord(t, 'attacker', 'memo', { f_note: words(INPUT_LIMIT) });
    const response = await pdfCreate('attacker', record.id, 'notes');
    assert.equal(response.statusCode, 422, response.body);
    const body = response.json();
    assert.equal(body.code, 'validation_failed');
    const size = body.size_bytes as number;
    assert.ok(size > INPUT_LIMIT, `size ${size}`);
    assert.equal(body.limit_bytes, INPUT_LIMIT);
    assert.ok(body.message.includes(`${size} bytes`), body.message);
    assert.ok(body.message.includes(`at most ${INPUT_LIMIT} bytes (WRS_PDF_INPUT_LIMIT_BYTES)`), body.message);
    assert.equal(await fileCount('attacker', record.id), 0);
  });

  it("serves another company's one-line render while one company floods the only thread with the slowest renders allowed", async () => {
    // Just under the cap once the record's id, status and created_at are counted.
    const heavy = await createRecord(t, 'attacker', 'memo', { f_note: words(INPUT_LIMIT - 200) });
    const light = await createRecord(t, 'bystander', 'invoice', { f_customer: 'Small Co' });

    const done: string[] = [];
    const attack = Array.from({ length: ATTACK_RENDERS }, (_, n) =>
      pdfCreate('attacker', heavy.id, 'notes').then((response) => {
        // A render refused for want of a place (503 after the queue timeout) was not served before the bystander.
        if (response.statusCode === 200) done.push(`attacker ${n}`);
        return response;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const bystander = await pdfCreate('bystander', light.id, 'line');
    done.push('bystander');
    const attackAnswers = await Promise.all(attack);

    assert.equal(bystander.statusCode, 200, bystander.body);
    const attackersBefore = done.indexOf('bystander');
    assert.ok(attackersBefore <= 3, `the bystander was served after ${attackersBefore} of the attacker's renders: ${done.join(', ')}`);
    assert.equal(await fileCount('bystander', light.id), 1);

    const statuses = attackAnswers.map((response) => response.statusCode);
    assert.ok(statuses.includes(200), `record data just under the cap renders: ${statuses.join(', ')}`);
    for (const response of attackAnswers.filter((answer) => answer.statusCode === 503)) {
      assert.equal(response.headers.get('retry-after'), '1');
      assert.match(response.json().message, /no PDF render thread was free within 5000 ms/);
    }
  });
});
