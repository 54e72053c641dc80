/** Test data: a valid Lob-shaped check (as in Lob's published example), with overrides. */
export function lobCheck(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    description: 'Demo Check',
    metadata: {},
    check_number: 10001,
    memo: 'rent',
    amount: 22.5,
    to: {
      name: 'HARRY ZHANG',
      address_line1: '185 BERRY ST STE 6100',
      address_city: 'SAN FRANCISCO',
      address_state: 'CA',
      address_zip: '94107-1741',
      address_country: 'UNITED STATES',
    },
    from: {
      name: 'LEORE AVIDAR',
      address_line1: '185 BERRY ST STE 6100',
      address_city: 'SAN FRANCISCO',
      address_state: 'CA',
      address_zip: '94107-1741',
    },
    bank_account: 'bank_8cad8df5354d33f',
    mail_type: 'usps_first_class',
    ...overrides,
  };
}

/** `count` checks one hour apart from `start`, each with a distinct id; even ones scheduled a day later. */
export function checkSeries(count: number, start = '2026-11-01T00:00:00.000Z', prefix = 'chk_s'): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => {
    const created = new Date(Date.parse(start) + index * 3_600_000).toISOString();
    const send = index % 2 === 0 ? new Date(Date.parse(created) + 86_400_000).toISOString() : created;
    return lobCheck({
      id: `${prefix}${String(index).padStart(4, '0')}`,
      date_created: created,
      send_date: send,
      mail_type: index % 3 === 0 ? 'usps_standard' : 'usps_first_class',
    });
  });
}
