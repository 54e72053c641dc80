const WEBHOOK_ID = '019aa5d0-1b2c-7d3e-8f40-5a6b7c8d9e0f';
const CREATED = '2026-11-21T15:04:05.123Z';

export const exampleWebhook = {
  id: WEBHOOK_ID,
  url: 'https://hooks.example.com/wrs',
  events: ['record.created', 'record.updated'],
  description: 'CRM sync',
  enabled: true,
  created_at: CREATED,
  updated_at: CREATED,
};

export const exampleCreatedWebhook = { ...exampleWebhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwq0o2m0aQnqE=' };

export const exampleRotatedSecret = { secret: 'whsec_3q1m0uXWm9yqkQ2fJk7yYF0l5pO2bZ1x9Gk6dVt8cWs=', previous_secret_expires_at: '2026-11-22T15:04:05.123Z' };

export const exampleDelivery = {
  id: 'msg_019aa5d1-2c3d-7e4f-9051-6b7c8d9e0f1a',
  webhook_id: WEBHOOK_ID,
  event_type: 'record.created',
  status: 'delivered',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  last_response_body: '{"received":true}',
  next_attempt_at: null,
  created_at: '2026-11-21T15:05:00.000Z',
  delivered_at: '2026-11-21T15:05:00.042Z',
};

export const exampleFailedDelivery = {
  ...exampleDelivery,
  status: 'failed',
  attempts: 8,
  last_status_code: 500,
  last_error: 'the receiver answered 500',
  last_response_body: 'Internal Server Error',
  delivered_at: null,
};
