import type { Check } from '@wrs/client';
import { DateTimeText } from '../../components/date-time-text';
import { mailTypeLabel } from './checks-query';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The name (or company) and city of a Lob address object. */
function addresseeOf(address: Check['to']): { name: string; place: string } {
  const text = (key: string) => {
    const value = address?.[key];
    return typeof value === 'string' ? value : '';
  };
  return {
    name: text('name') || text('company') || '—',
    place: [text('address_city'), text('address_state')].filter(Boolean).join(', '),
  };
}

/** A check is scheduled when its send date is later than its creation (the `scheduled` filter's rule). */
const isScheduled = (check: Check) => Boolean(check.send_date && check.date_created && Date.parse(check.send_date) > Date.parse(check.date_created));

export function ChecksResultsTable({ checks }: { checks: Check[] }) {
  return (
    // Focusable: on a narrow screen the table scrolls sideways, and its cells hold nothing to tab to.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it
    <section class="table-scroll" tabIndex={0} aria-label="Mailed checks, scrollable">
      <table class="checks-table">
        <caption class="visually-hidden">Mailed checks</caption>
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Number</th>
            <th scope="col" class="amount">
              Amount
            </th>
            <th scope="col">Recipient</th>
            <th scope="col">Description</th>
            <th scope="col">Mail type</th>
            <th scope="col">Created</th>
            <th scope="col">Send date</th>
            <th scope="col">Expected delivery</th>
          </tr>
        </thead>
        <tbody>
          {checks.map((check, index) => {
            const to = addresseeOf(check.to);
            return (
              <tr key={check.id ?? index} data-check-id={check.id}>
                <td class="mono">{check.id ?? '—'}</td>
                <td>{check.check_number ?? '—'}</td>
                <td class="amount">{typeof check.amount === 'number' ? dollars.format(check.amount) : '—'}</td>
                <td>
                  {to.name}
                  {to.place && <div class="muted">{to.place}</div>}
                </td>
                <td>
                  {check.description ?? '—'}
                  {check.memo && <div class="muted">Memo: {check.memo}</div>}
                </td>
                <td>{check.mail_type ? mailTypeLabel(check.mail_type) : '—'}</td>
                <td>
                  <DateTimeText value={check.date_created} />
                </td>
                <td>
                  <DateTimeText value={check.send_date} />
                  {isScheduled(check) && <div class="scheduled-mark">Scheduled</div>}
                </td>
                <td>
                  <DateTimeText value={check.expected_delivery_date} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
