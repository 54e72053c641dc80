import { CopyToClipboardButton } from '../../components/copy-to-clipboard-button';
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
      <div class="row">
        <label for="webhook-secret-value">Signing secret</label>
        <input id="webhook-secret-value" class="mono secret-value" type="text" readOnly value={webhook.secret} onFocus={(e) => e.currentTarget.select()} />
        <CopyToClipboardButton text={webhook.secret} label="Copy secret" />
      </div>
      <button type="button" onClick={onDismiss}>
        I have kept it: hide the secret
      </button>
    </section>
  );
}
