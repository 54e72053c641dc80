import { useState } from 'preact/hooks';

/** Copies a text; says whether it worked, and how to copy by hand when the browser refuses. */
export function CopyToClipboardButton({ text, label }: { text: string; label: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'refused'>();

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('refused');
    }
  }

  return (
    <span class="copy-to-clipboard">
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" class="muted">
        {outcome === 'copied' ? 'Copied.' : outcome === 'refused' ? 'The browser did not allow copying: select the text and copy it.' : ''}
      </span>
    </span>
  );
}
