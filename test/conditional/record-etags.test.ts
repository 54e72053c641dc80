import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, importRecords, VALID_LOAN } from '../records/fixtures.js';

const STRONG_TAG = /^"[A-Za-z0-9_-]{43}"$/;

describeEachDatabase('conditional requests on a record', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
    await defineType(t, 'globex', 'loan');
  });
  after(() => t.close());

  const get = (id: string, headers: Record<string, string> = {}, company = 'acme') => t.as(company, { method: 'GET', url: `/v1/records/${id}`, headers });
  const patch = (id: string, body: object, headers: Record<string, string> = {}, company = 'acme') =>
    t.as(company, { method: 'PATCH', url: `/v1/records/${id}`, payload: body, headers });

  it('answers a strong ETag that is the hash of the record as answered, the same on GET and PATCH', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const read = await get(record.id);
    expectStatus(read, 200);
    const etag = read.headers.etag as string;
    assert.match(etag, STRONG_TAG);
    assert.equal(etag, `"${createHash('sha256').update(read.body).digest('base64url')}"`);
    assert.equal((await get(record.id)).headers.etag, etag, 'an unchanged record keeps its tag');

    const patched = await patch(record.id, { f_borrower: 'Grace' });
    const updated = expectStatus(patched, 200);
    assert.notEqual(patched.headers.etag, etag);
    assert.equal(patched.headers.etag, `"${createHash('sha256').update(patched.body).digest('base64url')}"`);
    const reread = await get(record.id);
    assert.equal(reread.headers.etag, patched.headers.etag);
    assert.deepEqual(reread.json(), updated);
  });

  it("changes the tag when a replacement of the record's type changes what the record answers (its views)", async () => {
    const memo = { name: 'Memo', fields: [{ uid: 'f_text', field_name: 'Text', type: 'string', required: false }], statuses: [], views: [] };
    await defineType(t, 'acme', 'memo', memo);
    const record = await createRecord(t, 'acme', 'memo', { f_text: 'hello' });
    const etag = (await get(record.id)).headers.etag as string;
    await defineType(t, 'acme', 'memo', { ...memo, name: 'Memo v2' });
    assert.equal((await get(record.id, { 'if-none-match': etag })).statusCode, 304, 'a replacement that changes nothing the record answers');
    await defineType(t, 'acme', 'memo', { ...memo, views: [{ id: 'all-memos', name: 'All', statuses: [] }] });
    const inView = await get(record.id, { 'if-none-match': etag });
    assert.equal(inView.statusCode, 200);
    assert.deepEqual(inView.json().views, ['all-memos']);
    expectStatus(await patch(record.id, { f_text: 'mine' }, { 'if-match': etag }), 412, 'precondition_failed');
  });

  it('answers 304 with an empty body to If-None-Match naming the current tag (a list, weak or *), 200 otherwise', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const etag = (await get(record.id)).headers.etag as string;
    for (const header of [etag, `"old", ${etag}`, `W/${etag}`, '*', ` ,${etag} , "x"`]) {
      const response = await get(record.id, { 'if-none-match': header });
      assert.equal(response.statusCode, 304, header);
      assert.equal(response.body, '', header);
      assert.equal(response.headers.etag, etag, header);
    }
    const head = await t.as('acme', { method: 'HEAD', url: `/v1/records/${record.id}`, headers: { 'if-none-match': etag } });
    assert.equal(head.statusCode, 304, 'HEAD too');
    const stale = await get(record.id, { 'if-none-match': '"something-else", W/"other"' });
    assert.equal(stale.statusCode, 200);
    assert.deepEqual(stale.json(), record);

    expectStatus(await patch(record.id, { status: 'in_review' }), 200);
    const changed = await get(record.id, { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200, 'the old tag no longer matches once the record changed');
    assert.equal(changed.json().status, 'in_review');
  });

  it('honours If-None-Match for a record token reading its own record', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const minted = expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: {} }), 201);
    const asToken = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/v1/records/${record.id}`, headers: { authorization: `Bearer ${minted.token}`, ...headers } });
    const first = await asToken();
    expectStatus(first, 200);
    assert.equal(first.headers.etag, (await get(record.id)).headers.etag);
    const again = await asToken({ 'if-none-match': first.headers.etag as string });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  it('updates with a matching If-Match, or *, and answers the new tag', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const etag = (await get(record.id)).headers.etag as string;
    const first = await patch(record.id, { f_amount: 1 }, { 'if-match': `"stale", ${etag}` });
    expectStatus(first, 200);
    const second = await patch(record.id, { f_amount: 2 }, { 'if-match': first.headers.etag as string });
    expectStatus(second, 200);
    const any = await patch(record.id, { f_amount: 3 }, { 'if-match': '*' });
    assert.equal(expectStatus(any, 200).fields.Amount, 3);
  });

  it('takes If-Match on a record of a kind without a type (imported) as on a typed one', async () => {
    await importRecords(t, 'acme', [{ id: 'etag-ucc-1', record_type: 'uccfiling', status: 'filed', instance: { n: 1 } }]);
    const etag = (await get('etag-ucc-1')).headers.etag as string;
    const updated = await patch('etag-ucc-1', { status: 'lapsed' }, { 'if-match': etag });
    assert.equal(expectStatus(updated, 200).status, 'lapsed');
    expectStatus(await patch('etag-ucc-1', { status: 'filed' }, { 'if-match': etag }), 412, 'precondition_failed');
    assert.equal((await get('etag-ucc-1')).headers.etag, updated.headers.etag);
  });

  it('refuses a PATCH whose If-Match does not match with 412 precondition_failed, and changes nothing', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const before = await get(record.id);
    const etag = before.headers.etag as string;
    expectStatus(await patch(record.id, { f_borrower: 'Changed by a colleague' }), 200);
    const afterColleague = await get(record.id);

    for (const header of [etag, '"nope"', `W/${afterColleague.headers.etag as string}`]) {
      const refused = expectStatus(await patch(record.id, { f_borrower: 'Mine', status: 'done' }, { 'if-match': header }), 412, 'precondition_failed');
      assert.match(refused.message, /If-Match/, header);
      const now = await get(record.id);
      assert.equal(now.body, afterColleague.body, `nothing changed after If-Match: ${header}`);
      assert.equal(now.headers.etag, afterColleague.headers.etag);
    }
  });

  it('checks If-Match before the body: a stale tag with an invalid body is 412', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    expectStatus(await patch(record.id, { nope: 1 }, { 'if-match': '"stale"' }), 412, 'precondition_failed');
  });

  it("answers 404 for an unknown record (or another company's) whatever If-Match says", async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const etag = (await get(record.id)).headers.etag as string;
    for (const header of ['*', etag, '"nope"']) {
      expectStatus(await patch('0190aaaa-0000-7000-8000-000000000000', { f_amount: 1 }, { 'if-match': header }), 404, 'not_found');
      expectStatus(await patch(record.id, { f_amount: 1 }, { 'if-match': header }, 'globex'), 404, 'not_found');
    }
    expectStatus(await get('0190aaaa-0000-7000-8000-000000000000', { 'if-none-match': '*' }), 404, 'not_found');
  });

  it('lets exactly one of two concurrent PATCHes carrying the same If-Match win', async () => {
    for (let round = 0; round < 5; round++) {
      const record = await createRecord(t, 'acme', 'loan', { ...VALID_LOAN, f_borrower: 'start' });
      const etag = (await get(record.id)).headers.etag as string;
      const answers = await Promise.all(['left', 'right'].map((borrower) => patch(record.id, { f_borrower: borrower }, { 'if-match': etag })));
      const statuses = answers.map((answer) => answer.statusCode).sort();
      assert.deepEqual(statuses, [200, 412], answers.map((answer) => answer.body).join('\n'));
      const winner = answers.find((answer) => answer.statusCode === 200)!;
      assert.equal(answers.find((answer) => answer.statusCode === 412)!.json().code, 'precondition_failed');
      const stored = await get(record.id);
      assert.equal(stored.body, winner.body, "the stored record is the winner's answer");
      assert.equal(stored.headers.etag, winner.headers.etag);
    }
  });

  it('answers 400 invalid_header to a malformed If-None-Match or If-Match, and changes nothing', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const before = await get(record.id);
    for (const header of ['abc', '"unterminated', 'W/abc', '"a" "b"', '"a";', ',', '**', '"a", *', 'w/"a"', '"a"b']) {
      const read = expectStatus(await get(record.id, { 'if-none-match': header }), 400, 'invalid_header');
      assert.match(read.message, /^If-None-Match must be \* or a comma-separated list of quoted entity tags/, header);
      const write = expectStatus(await patch(record.id, { f_amount: 7 }, { 'if-match': header }), 400, 'invalid_header');
      assert.match(write.message, /^If-Match must be/, header);
    }
    assert.equal((await get(record.id)).body, before.body);
  });

  it('behaves as before without If-Match', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    expectStatus(await patch(record.id, { f_amount: 9 }), 200);
    expectStatus(await patch(record.id, { nope: 1 }), 400, 'validation_failed');
  });
});
