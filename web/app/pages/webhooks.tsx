import { useEffect, useState } from 'preact/hooks';
import { call } from '../../shared/api';
import { signedOutOnUnauthorized } from '../components/session-expiry';
import { useConsole } from '../console-context';
import { CreateWebhookForm } from './webhooks/create-webhook-form';
import { WebhookCard } from './webhooks/webhook-card';
import { WebhookSecret } from './webhooks/webhook-secret';
import type { CreatedWebhook, Webhook } from './webhooks/webhook-types';
import './webhooks/webhooks.css';

/** The company's outgoing webhooks: add one (its secret shown once), switch, delete, deliveries. */
export function WebhooksPage() {
  const { client, signOut } = useConsole();
  const [webhooks, setWebhooks] = useState<readonly Webhook[]>();
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<CreatedWebhook>();

  useEffect(() => {
    void call(() => client.GET('/v1/webhooks')).then((result) => {
      if (result.ok) setWebhooks(result.data.results);
      else if (!signedOutOnUnauthorized(result.problem, signOut)) setError(result.problem.message);
    });
  }, [client, signOut]);

  function added(webhook: CreatedWebhook) {
    const { secret: _secret, ...shown } = webhook;
    setCreated(webhook);
    setWebhooks([...(webhooks ?? []), shown]);
  }

  return (
    <div class="webhooks-page stack">
      <h1>Webhooks</h1>
      <p class="muted">The service POSTs each chosen event to the receiver, signed as the Standard Webhooks specification says, and retries until a 2xx.</p>
      {created && <WebhookSecret webhook={created} onDismiss={() => setCreated(undefined)} />}
      <div class="webhooks-layout">
        <section aria-labelledby="webhooks-heading" class="webhooks-list">
          <h2 id="webhooks-heading">Registered webhooks</h2>
          {error && (
            <div class="notice error" role="alert">
              {error}
            </div>
          )}
          {webhooks === undefined && !error && <p role="status">Loading webhooks…</p>}
          {webhooks?.length === 0 && <p class="muted">No webhook yet: add one to have events delivered.</p>}
          <ul class="webhook-cards">
            {webhooks?.map((webhook) => (
              <WebhookCard
                key={webhook.id}
                webhook={webhook}
                onChanged={(changed) => setWebhooks(webhooks.map((other) => (other.id === changed.id ? changed : other)))}
                onDeleted={(id) => setWebhooks(webhooks.filter((other) => other.id !== id))}
              />
            ))}
          </ul>
        </section>
        <CreateWebhookForm onCreated={added} />
      </div>
    </div>
  );
}
