import { publishedCheck, publishedCheckInput, type LobCheckMailType } from './lob-published-checks.js';

/**
 * Test data: a check to add, as an operator writes it, from Lob's published example (the
 * fields Lob fills itself left out), with overrides.
 */
export function lobCheck(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...publishedCheckInput(), ...overrides };
}

const mailTypeOf = (index: number): LobCheckMailType => (index % 3 === 0 ? 'ups_next_day_air' : 'usps_first_class');

/**
 * `count` checks one hour apart from `start`, each with a distinct id; even ones scheduled a
 * day later, every third sent by UPS next day air.
 */
export function checkSeries(count: number, start = '2026-11-01T00:00:00.000Z', prefix = 'chk_s'): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => {
    const created = new Date(Date.parse(start) + index * 3_600_000).toISOString();
    const send = index % 2 === 0 ? new Date(Date.parse(created) + 86_400_000).toISOString() : created;
    return lobCheck({
      id: `${prefix}${String(index).padStart(4, '0')}`,
      date_created: created,
      send_date: send,
      mail_type: mailTypeOf(index),
    });
  });
}

/**
 * Checks as Lob returns them (the whole published object), one hour apart from `start`, newest
 * last; every third sent by UPS next day air, every even one scheduled two days later.
 */
export function publishedCheckSeries(count: number, prefix: string, start = '2026-10-01T00:00:00.000Z') {
  return Array.from({ length: count }, (_, index) => {
    const created = new Date(Date.parse(start) + index * 3_600_000).toISOString();
    const send = index % 2 === 0 ? new Date(Date.parse(created) + 2 * 86_400_000).toISOString() : created;
    const id = `chk_${prefix}${index.toString(16).padStart(12, '0')}`;
    return {
      ...publishedCheck(mailTypeOf(index), id),
      date_created: created,
      date_modified: created,
      send_date: send,
      url: `https://lob-assets.com/checks/${id}.pdf?expires=1568239682&signature=x`,
    } as unknown as Record<string, unknown> & { id: string; date_created: string; send_date: string; mail_type: string };
  });
}
