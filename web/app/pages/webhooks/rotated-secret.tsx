import { DateTimeText } from '../../components/date-time-text';
import { SecretField } from './secret-field';
import type { RotatedSecret } from './webhook-types';

/** A rotation's new signing secret, shown this once, and when the old one stops signing. */
export function RotatedSecretNotice({ webhookId, rotated, onDismiss }: { webhookId: string; rotated: RotatedSecret; onDismiss(): void }) {
  const inputId = `webhook-${webhookId}-new-secret`;
  const expires = rotated.previous_secret_expires_at;
  return (
    <section class="notice success webhook-secret" aria-labelledby={`${inputId}-heading`}>
      <h4 id={`${inputId}-heading`}>New signing secret: copy it now</h4>
      <p>
        It is <strong>shown only now</strong> and signs every delivery from now on.{' '}
        {expires ? (
          <>
            The old secret signs too until <DateTimeText value={expires} />: give the receiver the new one before then.
          </>
        ) : (
          'The old secret stopped at once.'
        )}
      </p>
      <SecretField id={inputId} label="New signing secret" secret={rotated.secret} copyLabel="Copy new secret" />
      <button type="button" onClick={onDismiss}>
        I have kept it: hide the secret
      </button>
    </section>
  );
}
