import { SecretField } from './secret-field';
import type { CreatedWebhook } from './webhook-types';

/** The new webhook's signing secret, shown this once; the service never shows it again. */
export function WebhookSecret({ webhook, onDismiss }: { webhook: CreatedWebhook; onDismiss(): void }) {
  return (
    <section class="notice success webhook-secret" aria-labelledby="webhook-secret-heading">
      <h2 id="webhook-secret-heading">Webhook added: copy its signing secret now</h2>
      <p>
        The secret of <code>{webhook.url}</code> is <strong>shown only now</strong>. Keep it where the receiver can read it, to verify each delivery's{' '}
        <code>webhook-signature</code>. It cannot be shown again.
      </p>
      <SecretField id="webhook-secret-value" label="Signing secret" secret={webhook.secret} copyLabel="Copy secret" />
      <button type="button" onClick={onDismiss}>
        I have kept it: hide the secret
      </button>
    </section>
  );
}
