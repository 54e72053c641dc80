import { Type, type Static } from '@sinclair/typebox';

/** Who asked for a lifecycle job: the operator API or the `wrs` command. */
export const REQUESTERS = ['operator_api', 'cli'] as const;
export type Requester = (typeof REQUESTERS)[number];

const Requested = Type.Union(
  REQUESTERS.map((name) => Type.Literal(name)),
  { description: 'who asked: the operator API or the wrs command' },
);
const JobState = Type.Union([Type.Literal('running'), Type.Literal('done')], {
  description: 'running until every batch is removed (a restarted service continues it), then done',
});

/**
 * An erasure of a person's data as the operator API shows it: the job while it runs, its
 * audit entry once done. It never holds the erased value, only its keyed hash.
 */
export const ErasureSchema = Type.Object(
  {
    id: Type.String(),
    company_id: Type.String(),
    field: Type.Literal('user_id', { description: 'the event field the value was matched on (user_key is its alias)' }),
    subject_hash: Type.String({ description: 'HMAC-SHA256 of the company, field and value under a key derived from WRS_ENCRYPTION_KEY; never the value' }),
    state: JobState,
    requested_by: Requested,
    requested_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    removed: Type.Object(
      { events: Type.Integer(), record_tokens: Type.Integer() },
      { description: 'rows removed so far: events whose user_id is the value, record tokens minted by that user' },
    ),
    batches: Type.Integer({ description: 'transactions that removed rows' }),
  },
  { title: 'Erasure' },
);
export type Erasure = Static<typeof ErasureSchema>;

/** A running erasure as storage keeps it: the value sealed, readable only while the job runs. */
export interface StoredErasure extends Erasure {
  subject_sealed: string | null;
  lease_until: string | null;
}

export { JobState, Requested };
