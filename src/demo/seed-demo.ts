import type { ChecksService } from '../domain/checks/checks-service.js';
import type { EventsService } from '../domain/events/events-service.js';
import type { RecordTypesService } from '../domain/record-types/record-types-service.js';
import type { RecordsService } from '../domain/records/records-service.js';
import type { TemplateService } from '../domain/templates/template-service.js';
import type { Clock } from '../lib/clock.js';
import type { Database } from '../storage/database.js';
import { isDatabaseEmpty } from '../storage/database-empty.js';
import { seedDemoChecks } from './demo-checks.js';
import { seedDemoEvents } from './demo-events.js';
import { seedDemoRecords } from './demo-records.js';
import { seedDemoTemplates } from './demo-templates.js';

/** What the demo seeders need; the AppContext provides it. Features add their services here. */
export interface DemoSeedDependencies {
  readonly database: Database;
  readonly clock: Clock;
  readonly events: EventsService;
  readonly recordTypes: RecordTypesService;
  readonly records: RecordsService;
  readonly checks: ChecksService;
  readonly templates: TemplateService;
}

/**
 * One feature's demo data for a company. It adds only what the company does not have yet, so
 * seeding twice changes nothing, and returns how many items it stored.
 */
export interface DemoSeeder {
  readonly name: string;
  seed(deps: DemoSeedDependencies, companyId: string): Promise<number>;
}

/** The demo, feature by feature; a feature extends it by adding its seeder here. */
export const DEMO_SEEDERS: readonly DemoSeeder[] = [
  { name: 'events', seed: seedDemoEvents },
  { name: 'records', seed: seedDemoRecords },
  { name: 'checks', seed: seedDemoChecks },
  { name: 'templates', seed: seedDemoTemplates },
];

/** Seeds every feature's demo data into a company; returns how many items each seeder stored. */
export async function seedDemo(deps: DemoSeedDependencies, companyId: string): Promise<Record<string, number>> {
  const stored: Record<string, number> = {};
  for (const seeder of DEMO_SEEDERS) stored[seeder.name] = await seeder.seed(deps, companyId);
  return stored;
}

/** Seeds the demo company only when no company has any data yet; returns whether it did. */
export async function seedDemoIntoEmptyDatabase(deps: DemoSeedDependencies, companyId: string): Promise<boolean> {
  if (!(await isDatabaseEmpty(deps.database))) return false;
  await seedDemo(deps, companyId);
  return true;
}
