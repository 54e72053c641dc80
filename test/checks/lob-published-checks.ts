/**
 * Lob's check object as Lob publishes it, the one source of check test data (the factories and
 * the fake Lob server draw on it). Transcribed from lob/lob-openapi at 539ed451fc9f:
 * `resources/checks/responses/check.yml` (the example of `GET /v1/checks/{chk_id}`) and
 * `resources/checks/responses/all_checks.yml` (the two checks of the `GET /v1/checks` example),
 * whose fields are those of `resources/checks/models/check.yml`.
 */

type Json = Record<string, unknown>;

/** `resources/checks/responses/check.yml`, example, verbatim (including `sla`, which the model does not list). */
const RETRIEVED_CHECK: Json = {
  id: 'chk_534f10783683daa0',
  description: 'Demo Check',
  metadata: {},
  check_number: 10062,
  memo: 'rent',
  amount: 22.5,
  url: 'https://lob-assets.com/checks/chk_534f10783683daa0.pdf?expires=1540372221&signature=Ty3IV2bGPEoQfrdraYHlNYTaarnHLXb',
  to: {
    id: 'adr_bae820679f3f536b',
    description: 'Harry - Office',
    name: 'HARRY ZHANG',
    company: 'LOB',
    email: 'harry@lob.com',
    phone: '5555555555',
    address_line1: '210 KING ST STE 6100',
    address_line2: '',
    address_city: 'SAN FRANCISCO',
    address_state: 'CA',
    address_zip: '94107-1741',
    address_country: 'UNITED STATES',
    metadata: {},
    date_created: '2018-12-08T03:08:43.446Z',
    date_modified: '2018-12-08T03:08:43.446Z',
    object: 'address',
    recipient_moved: false,
  },
  from: {
    id: 'adr_b8fb5acf3a2b55db',
    name: 'LEORE AVIDAR',
    address_line1: '210 KING ST STE 6100',
    address_city: 'SAN FRANCISCO',
    address_state: 'CA',
    address_zip: '94107-1741',
    address_country: 'UNITED STATES',
    metadata: {},
    date_created: '2017-09-05T17:47:53.767Z',
    date_modified: '2017-09-05T17:47:53.767Z',
    object: 'address',
  },
  bank_account: {
    id: 'bank_8cad8df5354d33f',
    description: 'Test Bank Account',
    metadata: {},
    routing_number: '322271627',
    account_number: '123456789',
    signatory: 'John Doe',
    bank_name: 'J.P. MORGAN CHASE BANK, N.A.',
    verified: true,
    account_type: 'company',
    date_created: '2015-11-06T19:24:24.440Z',
    date_modified: '2015-11-06T19:41:28.312Z',
    object: 'bank_account',
    signature_url: 'https://lob-assets.com/bank-accounts/asd_asdfghjkqwertyui.pdf?expires=1234567890&signature=aksdf',
  },
  carrier: 'USPS',
  tracking_events: [],
  thumbnails: [
    {
      small: 'https://lob-assets.com/checks/chk_534f10783683daa0_thumb_small_1.png?expires=1540372221&signature=ShhPpH74wYkNiAj7Il9B6q8ZKkzlGd4',
      medium: 'https://lob-assets.com/checks/chk_534f10783683daa0_thumb_medium_1.png?expires=1540372221&signature=tmIOq6aAyKgzAECp7STj1rvJuMS5Svd',
      large: 'https://lob-assets.com/checks/chk_534f10783683daa0_thumb_large_1.png?expires=1540372221&signature=04nLEwE9d2qgQJNgJYWSOgPnU0FZbEv',
    },
  ],
  merge_variables: { name: 'Harry' },
  expected_delivery_date: '2017-09-12',
  mail_type: 'usps_first_class',
  date_created: '2017-09-05T17:47:53.896Z',
  date_modified: '2017-09-05T17:47:53.896Z',
  send_date: '2017-09-05T17:47:53.896Z',
  object: 'check',
  message: 'pancakes are good',
  check_bottom_template_id: 'tmpl_a',
  attachment_template_id: 'tmpl_a',
  check_bottom_template_version_id: 'vrsn_a',
  attachment_template_version_id: 'vrsn_a',
  use_type: 'operational',
  sla: '2',
  deleted: true,
};

const address = (id: string, name: string, created: string): Json => ({
  id,
  name,
  address_line1: '210 KING ST STE 6100',
  address_city: 'SAN FRANCISCO',
  address_state: 'CA',
  address_zip: '94107-1741',
  address_country: 'UNITED STATES',
  metadata: {},
  date_created: created,
  date_modified: created,
  object: 'address',
});

const listedBankAccount: Json = {
  id: 'bank_8cad8df5354d33f',
  description: 'Test Bank Account',
  metadata: {},
  routing_number: '322271627',
  account_number: '123456789',
  account_type: 'individual',
  signatory: 'John Doe',
  bank_name: 'J.P. MORGAN CHASE BANK, N.A.',
  verified: true,
  date_created: '2015-11-06T19:24:24.440Z',
  date_modified: '2015-11-06T19:41:28.312Z',
  object: 'bank_account',
};

const thumbnails = (id: string, pages: number): Json[] =>
  Array.from({ length: pages }, (_, page) =>
    Object.fromEntries(
      ['small', 'medium', 'large'].map((size) => [
        size,
        `https://lob-assets.com/checks/${id}_thumb_${size}_${page + 1}.png?version=v1&expires=1568239682&signature=${size}${page + 1}`,
      ]),
    ),
  );

/**
 * `resources/checks/responses/all_checks.yml`, the two checks of the example (thumbnail
 * signatures shortened): a bare-date `send_date` earlier than `date_created` on the same day,
 * `merge_variables` both `{}` and null, a `to` with and without its optional fields.
 */
const LISTED_CHECKS: Json[] = [
  {
    id: 'chk_0176bf6197100185',
    description: 'Demo Check',
    metadata: {},
    check_number: 12559,
    memo: 'rent',
    amount: 22.5,
    url: 'https://lob-assets.com/checks/chk_0176bf6197100185.pdf?version=v1&expires=1568239682&signature=aqKV5lmg_ktxzyl',
    to: {
      ...address('adr_bae820679f3f536b', 'HARRY ZHANG', '2018-12-08T03:08:43.446Z'),
      description: 'Harry - Office',
      company: 'LOB',
      email: 'harry@lob.com',
      phone: '5555555555',
      address_line2: '',
      recipient_moved: false,
    },
    from: address('adr_210a8d4b0b76d77b', 'LEORE AVIDAR', '2018-12-08T03:01:07.651Z'),
    bank_account: {
      ...listedBankAccount,
      signature_url: 'https://lob-assets.com/bank-accounts/asd_asdfghjkqwertyui.pdf?expires=1234567890&signature=aksdf',
    },
    carrier: 'USPS',
    tracking_events: [],
    thumbnails: thumbnails('chk_0176bf6197100185', 2),
    expected_delivery_date: '2019-08-16',
    mail_type: 'usps_first_class',
    date_created: '2019-08-08T19:34:47.571Z',
    date_modified: '2019-08-08T19:34:49.612Z',
    send_date: '2019-08-08',
    message: 'pancakes are good',
    object: 'check',
    check_bottom_template_id: 'tmpl_a',
    attachment_template_id: 'tmpl_a',
    check_bottom_template_version_id: 'vrsn_a',
    attachment_template_version_id: 'vrsn_a',
    merge_variables: {},
    use_type: 'operational',
    deleted: true,
  },
  {
    id: 'chk_92b9a6714bc0557c',
    description: 'Demo Check',
    metadata: {},
    check_number: 12558,
    memo: 'rent',
    amount: 22.5,
    url: 'https://lob-assets.com/checks/chk_92b9a6714bc0557c.pdf?version=v1&expires=1568239682&signature=jCct5PvzU58Iz2pSo58',
    to: address('adr_bae820679f3f536b', 'HARRY ZHANG', '2018-12-08T03:08:43.446Z'),
    from: address('adr_210a8d4b0b76d77b', 'LEORE AVIDAR', '2018-12-08T03:01:07.651Z'),
    bank_account: listedBankAccount,
    carrier: 'USPS',
    tracking_events: [],
    thumbnails: thumbnails('chk_92b9a6714bc0557c', 3),
    merge_variables: null,
    expected_delivery_date: '2019-08-16',
    mail_type: 'usps_first_class',
    date_created: '2019-08-08T19:34:27.802Z',
    date_modified: '2019-08-08T19:34:30.582Z',
    send_date: '2019-08-08T19:34:27.802Z',
    use_type: 'operational',
    object: 'check',
  },
];

/** A `tracking_event_normal` (shared/resources/tracking_events/models), every documented field. */
const trackingEvent = (id: string, name: string, time: string, location: string | null): Json => ({
  id,
  type: 'normal',
  name,
  details: null,
  location,
  time,
  date_created: time,
  date_modified: time,
  object: 'tracking_event',
});

export type LobCheckMailType = 'usps_first_class' | 'ups_next_day_air';

/**
 * The retrieved example, completed with every field the check model documents that the
 * example leaves out (`status`, `failure_reason`, tracking events, an address's `deleted`, the
 * bank account's `check_template` family and `microdeposit_type`), sent by `mailType`.
 */
export function publishedCheck(mailType: LobCheckMailType, id = RETRIEVED_CHECK.id as string): Json {
  const check = structuredClone(RETRIEVED_CHECK);
  Object.assign(check, {
    id,
    mail_type: mailType,
    status: 'rendered',
    failure_reason: null,
    tracking_events: [
      trackingEvent('evnt_9e84094c9368cfb', 'In Transit', '2017-09-07T08:21:00.000Z', '94107'),
      trackingEvent('evnt_1a2b3c4d5e6f708', 'Delivered', '2017-09-11T15:02:00.000Z', '94107'),
    ],
  });
  Object.assign(check.from as Json, { description: null, company: null, phone: null, email: null, address_line2: null, recipient_moved: null, deleted: false });
  Object.assign(check.bank_account as Json, {
    check_template: 'jpm',
    fractional_routing_number: '32-2716/3222',
    city: 'SAN FRANCISCO',
    state: 'CA',
    zipcode: '94107',
    microdeposit_type: null,
  });
  return check;
}

/** Both checks of Lob's list example, as Lob returns them. */
export function publishedListedChecks(): Json[] {
  return structuredClone(LISTED_CHECKS);
}

/** The fields an operator writes to add a check, taken from the published example. */
export function publishedCheckInput(): Json {
  const { description, metadata, check_number, memo, amount, to, from, bank_account, mail_type } = structuredClone(RETRIEVED_CHECK);
  return { description, metadata, check_number, memo, amount, to, from, bank_account: (bank_account as Json).id, mail_type };
}
