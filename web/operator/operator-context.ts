import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { WrsClient } from '@wrs/client';

/** What every operator screen needs: the client with the operator token, and the company worked on. */
export interface Operator {
  readonly client: WrsClient;
  readonly company: string;
  /** Signs out, e.g. when the service refuses the token, saying why on the sign-in page. */
  signOut(reason?: string): void;
}

export const OperatorContext = createContext<Operator | undefined>(undefined);

export function useOperator(): Operator {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error('useOperator outside the signed-in operator page');
  return operator;
}
