import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { WrsClient } from '@wrs/client';
import type { Session } from './session';

export interface Console {
  session: Session;
  client: WrsClient;
  /** Ends the session (a 401 from the service: the token expired or was revoked). */
  signOut(reason?: string): void;
}

export const ConsoleContext = createContext<Console | undefined>(undefined);

/** The signed-in session and its client; every page under the shell has one. */
export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in shell');
  return value;
}
