import { CopyToClipboardButton } from '../../components/copy-to-clipboard-button';

/** A signing secret shown once: read-only, selected on focus, with a copy button. */
export function SecretField({ id, label, secret, copyLabel }: { id: string; label: string; secret: string; copyLabel: string }) {
  return (
    <div class="row">
      <label for={id}>{label}</label>
      <input id={id} class="mono secret-value" type="text" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
      <CopyToClipboardButton text={secret} label={copyLabel} />
    </div>
  );
}
