import { useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { signedOutOnUnauthorized } from '../../components/session-expiry';
import { useConsole } from '../../console-context';
import { EVENT_TYPE_CHOICES, fieldOfMessage, type CreatedWebhook, type WebhookEventType, type WebhookField } from './webhook-types';

/** Registers a webhook; the page shows the created one's secret, which is never shown again. */
export function CreateWebhookForm({ onCreated }: { onCreated(webhook: CreatedWebhook): void }) {
  const { client, signOut } = useConsole();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<readonly WebhookEventType[]>(['*']);
  const [description, setDescription] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<WebhookField, string>>>({});
  const [formError, setFormError] = useState<string>();

  const toggle = (type: WebhookEventType, checked: boolean) =>
    setEvents(checked ? [...events.filter((other) => other !== type), type] : events.filter((other) => other !== type));

  async function submit(event: Event) {
    event.preventDefault();
    setFieldErrors({});
    setFormError(undefined);
    setBusy(true);
    const result = await call(() =>
      client.POST('/v1/webhooks', {
        body: { url: url.trim(), events: [...events], enabled, ...(description.trim() ? { description: description.trim() } : {}) },
      }),
    );
    setBusy(false);
    if (result.ok) {
      onCreated(result.data);
      setUrl('');
      setDescription('');
      return;
    }
    if (signedOutOnUnauthorized(result.problem, signOut)) return;
    const field = result.problem.status === 400 ? fieldOfMessage(result.problem.message) : undefined;
    if (field) setFieldErrors({ [field]: result.problem.message });
    else setFormError(result.problem.message);
  }

  const errorOf = (field: WebhookField) =>
    fieldErrors[field] && (
      <span class="error" id={`webhook-${field}-error`}>
        {fieldErrors[field]}
      </span>
    );

  return (
    <form class="card create-webhook" onSubmit={submit} noValidate>
      <h2>Add a webhook</h2>
      {formError && (
        <div class="notice error" role="alert">
          {formError}
        </div>
      )}
      <div class="field">
        <label for="webhook-url">Receiver URL</label>
        <span class="hint" id="webhook-url-hint">
          An https address on the public internet; each delivery is POSTed there, signed with the webhook's secret.
        </span>
        <input
          id="webhook-url"
          type="url"
          value={url}
          required
          aria-invalid={fieldErrors.url !== undefined}
          aria-describedby={fieldErrors.url ? 'webhook-url-hint webhook-url-error' : 'webhook-url-hint'}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        {errorOf('url')}
      </div>
      <fieldset class="field webhook-events" aria-describedby={fieldErrors.events ? 'webhook-events-error' : undefined}>
        <legend>Event types</legend>
        {EVENT_TYPE_CHOICES.map((choice) => (
          <div class="field checkbox" key={choice.type}>
            <input
              id={`webhook-event-${choice.type}`}
              type="checkbox"
              checked={events.includes(choice.type)}
              onChange={(e) => toggle(choice.type, e.currentTarget.checked)}
            />
            <label for={`webhook-event-${choice.type}`}>{choice.label}</label>
          </div>
        ))}
        {errorOf('events')}
      </fieldset>
      <div class="field">
        <label for="webhook-description">Description (optional)</label>
        <input
          id="webhook-description"
          type="text"
          maxLength={500}
          value={description}
          aria-invalid={fieldErrors.description !== undefined}
          aria-describedby={fieldErrors.description ? 'webhook-description-error' : undefined}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
        {errorOf('description')}
      </div>
      <div class="field checkbox">
        <input id="webhook-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <label for="webhook-enabled">Enabled: deliver events as they happen</label>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}
