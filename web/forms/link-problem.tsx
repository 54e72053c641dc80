/** Why a hosted-form link does not open its record. */
export type LinkRefusal = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'expired'; expiresAt: number } | { kind: 'revoked' };

const ASK_AGAIN = 'Ask the person who sent it for a new link.';

export function LinkProblem({ refusal, keepsValues = false }: { refusal: LinkRefusal; keepsValues?: boolean }) {
  const kept = keepsValues ? ' What you typed is still shown below, so you can copy it.' : '';
  return (
    <div class="notice error" role="alert">
      <p>
        <strong>{headline(refusal)}</strong>
      </p>
      <p>
        {explanation(refusal)} {ASK_AGAIN}
        {kept}
      </p>
    </div>
  );
}

function headline(refusal: LinkRefusal): string {
  switch (refusal.kind) {
    case 'missing':
    case 'invalid':
      return 'This link is not valid.';
    case 'expired':
      return 'This link has expired.';
    case 'revoked':
      return 'This link has been withdrawn.';
  }
}

function explanation(refusal: LinkRefusal): string {
  switch (refusal.kind) {
    case 'missing':
      return 'It does not carry the code that opens a record: open the whole link you were sent.';
    case 'invalid':
      return 'It is not a link to a record: it may have been cut short when it was copied.';
    case 'expired':
      return `It was valid until ${new Date(refusal.expiresAt * 1000).toLocaleString()}.`;
    case 'revoked':
      return 'The sender revoked it, so it no longer opens the record.';
  }
}
