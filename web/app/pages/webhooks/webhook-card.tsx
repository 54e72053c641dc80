import { useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { signedOutOnUnauthorized } from '../../components/session-expiry';
import { useConsole } from '../../console-context';
import { WebhookDeliveries } from './webhook-deliveries';
import type { Webhook } from './webhook-types';

interface WebhookCardProps {
  webhook: Webhook;
  onChanged(webhook: Webhook): void;
  onDeleted(id: string): void;
}

/** One webhook: where it delivers, what, whether; enable or disable, delete, its deliveries. */
export function WebhookCard({ webhook, onChanged, onDeleted }: WebhookCardProps) {
  const { client, signOut } = useConsole();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const label = webhook.description ?? webhook.url;
  const path = { params: { path: { id: webhook.id } } };

  async function setEnabled(enabled: boolean) {
    setBusy(true);
    const result = await call(() => client.PATCH('/v1/webhooks/{id}', { ...path, body: { enabled } }));
    setBusy(false);
    if (result.ok) onChanged(result.data);
    else if (!signedOutOnUnauthorized(result.problem, signOut)) setError(result.problem.message);
  }

  async function remove() {
    setBusy(true);
    const result = await call(() => client.DELETE('/v1/webhooks/{id}', path));
    setBusy(false);
    if (result.ok) onDeleted(webhook.id);
    else if (!signedOutOnUnauthorized(result.problem, signOut)) setError(result.problem.message);
  }

  return (
    <li class="card webhook-card" aria-labelledby={`webhook-${webhook.id}-url`}>
      <div class="row webhook-head">
        <h3 id={`webhook-${webhook.id}-url`} class="mono webhook-url">
          {webhook.url}
        </h3>
        <span class={webhook.enabled ? 'webhook-state enabled' : 'webhook-state disabled'}>{webhook.enabled ? 'Enabled' : 'Disabled'}</span>
      </div>
      {webhook.description && <p class="webhook-description">{webhook.description}</p>}
      <p class="muted">Event types: {webhook.events.map((type) => (type === '*' ? 'all (*)' : type)).join(', ')}</p>
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
      <div class="row">
        <button type="button" disabled={busy} onClick={() => setEnabled(!webhook.enabled)}>
          {webhook.enabled ? 'Disable' : 'Enable'}
          <span class="visually-hidden"> {label}</span>
        </button>
        <button type="button" aria-expanded={showDeliveries} onClick={() => setShowDeliveries(!showDeliveries)}>
          {showDeliveries ? 'Hide deliveries' : 'Show deliveries'}
          <span class="visually-hidden"> of {label}</span>
        </button>
        {!confirmingDelete && (
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirmingDelete(true)}>
            Delete<span class="visually-hidden"> {label}</span>
          </button>
        )}
      </div>
      {confirmingDelete && (
        // biome-ignore lint/a11y/useSemanticElements: a confirmation row of a message and two buttons, not form fields; a fieldset would bring its own border and legend
        <div class="notice warning row" role="group" aria-label={`Confirm deleting ${label}`}>
          <span>Delete this webhook? Nothing more will be delivered to it, and its deliveries are gone.</span>
          <button type="button" class="danger" disabled={busy} onClick={remove}>
            Yes, delete it
          </button>
          <button type="button" onClick={() => setConfirmingDelete(false)}>
            Keep it
          </button>
        </div>
      )}
      {showDeliveries && <WebhookDeliveries webhookId={webhook.id} label={label} />}
    </li>
  );
}
