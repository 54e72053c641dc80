// Runs against `npm start`'s demo company:
//   BASE=http://127.0.0.1:8080 TOKEN=<the printed demo token> npx tsx clients/typescript/examples/quick-start.ts
import { createWrsClient, type WrsRecord } from '../src/index.js';

const baseUrl = process.env.BASE ?? 'http://127.0.0.1:8080';
const token = process.env.TOKEN;
if (!token) throw new Error('set TOKEN to the demo token `npm start` prints');

const wrs = createWrsClient({ baseUrl, token });

// Events: filters and order are typed query parameters.
const events = await wrs.GET('/v1/events', { params: { query: { type: 'user_flow_session_started', limit: 3, order_by: '-created_at' } } });
if (events.error) throw new Error(`listEvents: ${events.error.code}: ${events.error.message}`);
console.log(`${events.data.count} latest session starts:`, events.data.results.map((event) => `${event.flow_key} #${event.flow_session}`));

// Records of a view; `next` links to the following page.
const pipeline = await wrs.GET('/v1/records', { params: { query: { view_id: 'pipeline' } } });
if (pipeline.error) throw new Error(`listRecords: ${pipeline.error.code}: ${pipeline.error.message}`);
console.log(`pipeline: ${pipeline.data.results.map((record: WrsRecord) => `${record.id} (${record.status})`).join(', ')}`);

// Update a record's status; the answer is the record as stored.
const updated = await wrs.PATCH('/v1/records/{record}', { params: { path: { record: 'demo-loan-01' } }, body: { status: 'in_review' } });
if (updated.error) throw new Error(`updateRecord: ${updated.error.code}: ${updated.error.message}`);
console.log(`demo-loan-01 is now ${updated.data.status}, in views ${updated.data.views.join(', ')}`);

// A record token reads and updates that one record only: hand it to someone with its own client.
const minted = await wrs.POST('/v1/records/{record}/tokens', { params: { path: { record: 'demo-loan-01' } }, body: { expires_in: 600 } });
if (minted.error) throw new Error(`createRecordToken: ${minted.error.code}: ${minted.error.message}`);
const oneRecord = createWrsClient({ baseUrl, token: minted.data.token });
const seen = await oneRecord.GET('/v1/records/{record}', { params: { path: { record: 'demo-loan-01' } } });
const elsewhere = await oneRecord.GET('/v1/records/{record}', { params: { path: { record: 'demo-loan-02' } } });
console.log(`the record token reads ${seen.data?.id}; another record answers ${elsewhere.response.status} ${elsewhere.error?.code}`);

// Errors come back typed as { message, code }, never thrown.
const missing = await wrs.GET('/v1/records/{record}', { params: { path: { record: 'no-such-record' } } });
console.log(`a missing record: ${missing.response.status} ${missing.error?.code}: ${missing.error?.message}`);

// Mailed checks, newest first.
const checks = await wrs.GET('/v1/checks', { params: { query: { limit: 3, sort_by: '-date_created' } } });
if (checks.error) throw new Error(`listChecks: ${checks.error.code}: ${checks.error.message}`);
console.log(`latest checks: ${checks.data.results.map((check) => `${check.id} $${check.amount}`).join(', ')}`);
