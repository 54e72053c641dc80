/** Why a hosted-form link does not open its record. */
export type LinkRefusal =
  | { kind: 'missing' }
  | { kind: 'invalid' }
  /** The service refused the token itself: a bad signature, or a token it never issued. */
  | { kind: 'rejected' }
  /** A company user's sign-in token, pasted where a form link belongs. */
  | { kind: 'staff-token' }
  | { kind: 'expired'; expiresAt: number }
  | { kind: 'revoked' };

const ASK_AGAIN = 'Ask the person who sent it for a new link.';

export function LinkProblem({ refusal, keepsValues = false }: { refusal: LinkRefusal; keepsValues?: boolean }) {
  const kept = keepsValues ? ' What you typed is still shown below, so you can copy it.' : '';
  return (
    <div class="notice error" role="alert">
      <p>
        <strong>{headline(refusal)}</strong>
      </p>
      <p>
        {explanation(refusal)} {refusal.kind === 'staff-token' ? '' : ASK_AGAIN}
        {kept}
      </p>
    </div>
  );
}

function headline(refusal: LinkRefusal): string {
  switch (refusal.kind) {
    case 'missing':
    case 'invalid':
    case 'rejected':
      return 'This link is not valid.';
    case 'staff-token':
      return 'This is not a form link.';
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
    case 'rejected':
      return 'Its code could not be verified: it may have been changed or cut short when it was copied.';
    case 'staff-token':
      return (
        "What was opened is a staff member's sign-in token for the console, not a link to a form. " +
        'Staff sign in to the console instead; if you were asked to fill in a form, ask the sender for its link.'
      );
    case 'expired':
      return `It was valid until ${new Date(refusal.expiresAt * 1000).toLocaleString()}.`;
    case 'revoked':
      return 'The sender withdrew it, so it no longer opens the record.';
  }
}
