/** Examples of the data lifecycle's operator answers (OpenAPI). */
export const exampleErasure = {
  id: '019a8c2e-1f00-7000-8000-00000000e1a5',
  company_id: 'acme',
  field: 'user_id',
  subject_hash: '6ed6ce37e648668aa9a2db23996ca932eaebbfaa63d389a44ffc67269e3138b0',
  state: 'done',
  requested_by: 'operator_api',
  requested_at: '2026-03-01T09:00:00.000Z',
  updated_at: '2026-03-01T09:00:02.310Z',
  finished_at: '2026-03-01T09:00:02.311Z',
  removed: { events: 12408, record_tokens: 3 },
  batches: 13,
};

export const exampleErasureStarted = {
  ...exampleErasure,
  state: 'running',
  updated_at: exampleErasure.requested_at,
  finished_at: null,
  removed: { events: 0, record_tokens: 0 },
  batches: 0,
};

export const exampleOffboarding = {
  company_id: 'acme',
  state: 'done',
  requested_by: 'operator_api',
  requested_at: '2026-03-01T09:00:00.000Z',
  updated_at: '2026-03-01T09:01:40.120Z',
  finished_at: '2026-03-01T09:01:40.121Z',
  removed: { webhooks: 2, records: 1830, events: 200000, blobs: 41 },
  batches: 205,
};

export const exampleOffboardingStarted = {
  ...exampleOffboarding,
  state: 'running',
  updated_at: exampleOffboarding.requested_at,
  finished_at: null,
  removed: {},
  batches: 0,
};
