import { useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { signedOutOnUnauthorized } from '../../components/session-expiry';
import { useConsole } from '../../console-context';
import { RotatedSecretNotice } from './rotated-secret';
import { WebhookDeliveries } from './webhook-deliveries';
import { ROTATION_OVERLAPS, type RotatedSecret, type Webhook } from './webhook-types';

interface WebhookCardProps {
  webhook: Webhook;
  onChanged(webhook: Webhook): void;
  onDeleted(id: string): void;
}

/** One webhook: where it delivers, what, whether; enable or disable, rotate its secret, delete, its deliveries. */
export function WebhookCard({ webhook, onChanged, onDeleted }: WebhookCardProps) {
  const { client, signOut } = useConsole();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [confirmingRotate, setConfirmingRotate] = useState(false);
  const [overlapSeconds, setOverlapSeconds] = useState(ROTATION_OVERLAPS[0]!.seconds);
  const [rotated, setRotated] = useState<RotatedSecret>();
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

  async function rotate() {
    setBusy(true);
    const result = await call(() => client.POST('/v1/webhooks/{id}/secret', { ...path, body: { overlap_seconds: overlapSeconds } }));
    setBusy(false);
    setConfirmingRotate(false);
    if (result.ok) setRotated(result.data);
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
        {!confirmingRotate && (
          <button type="button" disabled={busy} onClick={() => setConfirmingRotate(true)}>
            Rotate secret<span class="visually-hidden"> of {label}</span>
          </button>
        )}
        {!confirmingDelete && (
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirmingDelete(true)}>
            Delete<span class="visually-hidden"> {label}</span>
          </button>
        )}
      </div>
      {confirmingRotate && (
        // biome-ignore lint/a11y/useSemanticElements: a confirmation row of a message, a choice and two buttons, like the delete confirmation
        <div class="notice warning row" role="group" aria-label={`Confirm rotating the secret of ${label}`}>
          <span>Make a new signing secret? The receiver needs it to verify deliveries once the old one stops.</span>
          <label>
            Old secret keeps signing for{' '}
            <select value={overlapSeconds} onChange={(e) => setOverlapSeconds(Number(e.currentTarget.value))}>
              {ROTATION_OVERLAPS.map((overlap) => (
                <option key={overlap.seconds} value={overlap.seconds}>
                  {overlap.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={busy} onClick={rotate}>
            Yes, rotate it
          </button>
          <button type="button" onClick={() => setConfirmingRotate(false)}>
            Keep the secret
          </button>
        </div>
      )}
      {rotated && <RotatedSecretNotice webhookId={webhook.id} rotated={rotated} onDismiss={() => setRotated(undefined)} />}
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
