import type { DataLifecycleSettings } from '../config/data-lifecycle.js';
import type { RetentionSettings } from '../config/retention.js';
import type { LifecycleJob } from '../domain/lifecycle/lifecycle-job.js';
import type { OpenDatabaseOptions } from '../storage/database.js';

/** What the thread is started with: the database to open and the settings of the jobs (no secrets beyond the key they need). */
export interface LifecycleThreadData {
  readonly databaseUrl: string;
  readonly database: OpenDatabaseOptions;
  readonly encryptionKeyHex: string;
  readonly dataLifecycle: DataLifecycleSettings;
  readonly retention: RetentionSettings;
}

/** An error as it crosses the thread boundary (a class and its own fields do not). */
export interface ThreadError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

export type ToLifecycleThread =
  | { readonly type: 'run'; readonly seq: number; readonly job: LifecycleJob }
  /** Ends the running jobs after their batch, closes the database, then acknowledges. */
  | { readonly type: 'stop'; readonly seq: number };

export type FromLifecycleThread =
  | { readonly type: 'ended'; readonly seq: number; readonly error?: ThreadError }
  | { readonly type: 'retention-removed'; readonly events: number }
  | { readonly type: 'retention-oldest-kept'; readonly createdAt: string | null }
  | { readonly type: 'feed-changed'; readonly companyId: string };

export function toThreadError(error: unknown): ThreadError {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: 'Error', message: String(error) };
}

export function fromThreadError(error: ThreadError): Error {
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}
