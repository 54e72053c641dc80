import { Type, type Static } from '@sinclair/typebox';
import { JobState, Requested } from './erasure.js';

/** An offboarding of a company as the operator API shows it: its progress, then its final report. */
export const OffboardingSchema = Type.Object(
  {
    company_id: Type.String(),
    state: JobState,
    requested_by: Requested,
    requested_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    removed: Type.Record(Type.String(), Type.Integer(), { description: 'rows removed per table, in the order the tables are emptied' }),
    batches: Type.Integer({ description: 'transactions that removed rows' }),
  },
  { title: 'Offboarding' },
);
export type Offboarding = Static<typeof OffboardingSchema>;

export interface StoredOffboarding extends Offboarding {
  lease_until: string | null;
}
