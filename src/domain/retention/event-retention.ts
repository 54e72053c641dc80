import { Type, type Static } from '@sinclair/typebox';

/** The longest period a company may keep, in days (100 years: anything longer is "forever"). */
export const MAX_RETENTION_DAYS = 36_500;

/**
 * A company's own retention setting as stored: undefined when it has none (the deployment's
 * default applies), null to keep its events forever whatever the default, else days.
 */
export type CompanyRetention = number | null | undefined;

/** Where a company's effective period comes from. */
export const RETENTION_SOURCES = ['company', 'deployment', 'none'] as const;

/** A company's retention as the operator API and CLI show it. */
export const EventRetentionSchema = Type.Object(
  {
    company_id: Type.String(),
    retention_days: Type.Union([Type.Integer(), Type.Null()], {
      description: "days of events kept, counted back from now by each event's created_at; null: kept forever",
    }),
    source: Type.Union(
      RETENTION_SOURCES.map((source) => Type.Literal(source)),
      {
        description:
          'company: set for this company (a number, or null to keep forever); deployment: WRS_EVENT_RETENTION_DAYS; ' +
          'none: neither is set, so events are kept forever',
      },
    ),
    deployment_default_days: Type.Union([Type.Integer(), Type.Null()], { description: 'WRS_EVENT_RETENTION_DAYS; null when unset' }),
  },
  { title: 'EventRetention' },
);

export type EventRetention = Static<typeof EventRetentionSchema>;

/** The period that applies to a company, and where it comes from. */
export function effectiveRetention(companyId: string, own: CompanyRetention, deploymentDays: number | undefined): EventRetention {
  const deployment_default_days = deploymentDays ?? null;
  if (own !== undefined) return { company_id: companyId, retention_days: own, source: 'company', deployment_default_days };
  if (deploymentDays !== undefined) return { company_id: companyId, retention_days: deploymentDays, source: 'deployment', deployment_default_days };
  return { company_id: companyId, retention_days: null, source: 'none', deployment_default_days };
}
