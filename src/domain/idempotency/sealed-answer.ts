import { isSealed, type SecretBox } from '../../lib/secret-box.js';
import type { IdempotencyTarget } from './idempotency-repository.port.js';
import type { KeptAnswer } from './kept-answer.js';

/**
 * A kept answer's body is stored sealed (it may hold a webhook's secret or a record token): bound
 * to its company, scope and key, so a body copied to another row does not open.
 */
function contextOf({ companyId, scope, key }: IdempotencyTarget): string {
  return `idempotency:${JSON.stringify([companyId, scope, key])}`;
}

export function sealAnswer(box: SecretBox, target: IdempotencyTarget, answer: KeptAnswer): KeptAnswer {
  return { ...answer, body: box.seal(answer.body, contextOf(target)) };
}

/**
 * The answer as it was sent. A body kept in plain text by an earlier version (JSON or empty)
 * is replayed as it is: such rows run out within 24 hours of the upgrade.
 */
export function openAnswer(box: SecretBox, target: IdempotencyTarget, answer: KeptAnswer): KeptAnswer {
  if (!isSealed(answer.body)) return answer;
  try {
    return { ...answer, body: box.open(answer.body, contextOf(target)) };
  } catch (error) {
    throw new Error(
      'the kept answer of this Idempotency-Key does not open: it was sealed with another WRS_ENCRYPTION_KEY or for another company, scope or key',
      { cause: error },
    );
  }
}
