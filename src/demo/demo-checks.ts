import type { NewCheck } from '../domain/checks/check-input.js';
import type { ChecksService } from '../domain/checks/checks-service.js';
import { AppError } from '../errors/app-error.js';
import type { Clock } from '../lib/clock.js';

export interface DemoChecksDeps {
  checks: ChecksService;
  clock: Clock;
}

const PAYEES = [
  { name: 'NORTHWIND TRADERS', address_line1: '185 BERRY ST STE 6100', address_city: 'SAN FRANCISCO', address_state: 'CA', address_zip: '94107-1741' },
  { name: 'CONTOSO LTD', address_line1: '1 MICROSOFT WAY', address_city: 'REDMOND', address_state: 'WA', address_zip: '98052' },
  { company: 'FABRIKAM INC', address_line1: '500 5TH AVE', address_city: 'NEW YORK', address_state: 'NY', address_zip: '10110' },
  { name: 'TAILSPIN TOYS', address_line1: '210 KING ST', address_city: 'SAN FRANCISCO', address_state: 'CA', address_zip: '94107' },
];

const PAYER = {
  name: 'DEMO LENDING CO',
  address_line1: '100 MAIN ST',
  address_city: 'AUSTIN',
  address_state: 'TX',
  address_zip: '78701',
};

/** Fixed ids, so that seeding a company twice adds nothing the second time. */
const demoCheckId = (i: number): string => `chk_de00${i.toString(16).padStart(12, '0')}`;

/**
 * Demo checks of a company's embedded provider: a dozen over the last three weeks, every third
 * sent by UPS next day air, every fourth scheduled a few days after it was created.
 */
export async function seedDemoChecks({ checks, clock }: DemoChecksDeps, companyId: string): Promise<number> {
  const now = clock.now().getTime();
  const demo: NewCheck[] = Array.from({ length: 12 }, (_, i) => {
    const created = new Date(now - (21 - i * 1.5) * 86_400_000);
    created.setUTCMinutes(0, 0, 0);
    const scheduled = i % 4 === 0;
    return {
      id: demoCheckId(i),
      description: `Loan disbursement ${i + 1}`,
      metadata: { loan: `LN-${String(1001 + i)}` },
      check_number: 10_000 + i,
      memo: scheduled ? 'scheduled disbursement' : 'disbursement',
      amount: 1_250 + i * 317.45,
      to: PAYEES[i % PAYEES.length]!,
      from: PAYER,
      bank_account: 'bank_8cad8df5354d33f',
      mail_type: i % 3 === 0 ? 'ups_next_day_air' : 'usps_first_class',
      date_created: created.toISOString(),
      send_date: new Date(created.getTime() + (scheduled ? 3 * 86_400_000 : 0)).toISOString(),
    };
  });
  try {
    return await checks.add(companyId, demo);
  } catch (error) {
    // Added all or nothing: a refusal naming the demo ids means the company has them already.
    if (error instanceof AppError && JSON.stringify(error.details).includes(demoCheckId(0))) return 0;
    throw error;
  }
}
