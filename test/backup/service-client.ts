import assert from 'node:assert/strict';
import { anEvent } from '../events/event-fixtures.js';
import { LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';
import { signUserToken, TEST_ADMIN_TOKEN } from '../helpers/test-app.js';

/** A company's writes and reads against a service over HTTP at `base` (a real `wrs serve` or any listening app). */
export function serviceClient(base: string, company: string) {
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const asUser = async () => ({ authorization: `Bearer ${await signUserToken({ company_id: company, sub: 'backup-user' })}` });

  /** Every item of a list, following its `next` links. */
  async function listAll(path: string): Promise<string[]> {
    const ids: string[] = [];
    let url: string | null = `${base}${path}`;
    const headers = await asUser();
    while (url) {
      const answer = await fetch(url, { headers });
      assert.equal(answer.status, 200, await answer.clone().text());
      const page = (await answer.json()) as { results: { id: string }[]; next: string | null };
      ids.push(...page.results.map((item) => item.id));
      url = page.next && `${base}${new URL(page.next).pathname}${new URL(page.next).search}`;
    }
    return ids;
  }

  return {
    async defineLoanType(): Promise<void> {
      const answer = await fetch(`${base}/admin/v1/companies/${company}/record-types/loan`, { method: 'PUT', headers: admin, body: JSON.stringify(LOAN_TYPE) });
      assert.ok([200, 201].includes(answer.status), await answer.text());
    },
    /** Ingests one event; answers whether the service acknowledged it. */
    async ingestEvent(id: string): Promise<boolean> {
      const answer = await fetch(`${base}/admin/v1/companies/${company}/events`, { method: 'POST', headers: admin, body: JSON.stringify([anEvent({ id })]) });
      await answer.arrayBuffer();
      return answer.status === 200;
    },
    /** Creates a loan; answers its id once the service acknowledged it. */
    async createLoan(): Promise<string | undefined> {
      const answer = await fetch(`${base}/v1/records/loan`, {
        method: 'POST',
        headers: { ...(await asUser()), 'content-type': 'application/json' },
        body: JSON.stringify(VALID_LOAN),
      });
      if (answer.status !== 201) return undefined;
      return ((await answer.json()) as { id: string }).id;
    },
    eventIds: () => listAll('/v1/events?limit=500'),
    // A record created under a type defined by the operator is listed as a `custom` record.
    loanIds: () => listAll('/v1/records?record_type=custom&limit=100'),
  };
}
