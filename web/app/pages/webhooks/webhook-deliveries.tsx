import { useEffect, useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { signedOutOnUnauthorized } from '../../components/session-expiry';
import { DateTimeText } from '../../components/date-time-text';
import { useConsole } from '../../console-context';
import type { Delivery } from './webhook-types';

const REFRESH_MS = 5000;

/** A webhook's deliveries, newest first, refreshed while shown; each can be sent again. */
export function WebhookDeliveries({ webhookId, label }: { webhookId: string; label: string }) {
  const { client, signOut } = useConsole();
  const [deliveries, setDeliveries] = useState<readonly Delivery[]>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [refreshes, setRefreshes] = useState(0);

  useEffect(() => {
    let current = true;
    void call(() => client.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: webhookId } } })).then((result) => {
      if (!current) return;
      if (result.ok) {
        setDeliveries(result.data.results);
        setError(undefined);
      } else if (!signedOutOnUnauthorized(result.problem, signOut)) setError(result.problem.message);
    });
    const timer = setTimeout(() => setRefreshes((count) => count + 1), REFRESH_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, signOut, webhookId, refreshes]);

  async function redeliver(delivery: Delivery) {
    setNotice(undefined);
    const result = await call(() =>
      client.POST('/v1/webhooks/{id}/deliveries/{delivery}/redeliver', { params: { path: { id: webhookId, delivery: delivery.id } } }),
    );
    if (result.ok) {
      setNotice(`Delivery ${delivery.id} will be sent again.`);
      setRefreshes((count) => count + 1);
    } else if (!signedOutOnUnauthorized(result.problem, signOut)) setError(result.problem.message);
  }

  return (
    <div class="webhook-deliveries">
      <div class="row">
        <h4>Deliveries</h4>
        <button type="button" onClick={() => setRefreshes((count) => count + 1)}>
          Refresh<span class="visually-hidden"> deliveries of {label}</span>
        </button>
        <span role="status" class="muted">
          {notice}
        </span>
      </div>
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
      {deliveries?.length === 0 && <p class="muted">Nothing delivered yet: deliveries appear here when one of its event types happens.</p>}
      {deliveries && deliveries.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Deliveries of {label}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event type</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Created</th>
                <th scope="col">Delivered</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} class="delivery-row">
                  <td>
                    <code>{delivery.event_type}</code>
                    <div class="muted mono delivery-id">{delivery.id}</div>
                  </td>
                  <td>
                    <span class={`delivery-status delivery-${delivery.status}`}>{delivery.status}</span>
                  </td>
                  <td>{delivery.attempts}</td>
                  <td>
                    {delivery.last_status_code ?? ''}
                    {delivery.last_error && <div class="delivery-error">{delivery.last_error}</div>}
                  </td>
                  <td>{timeOf(delivery.next_attempt_at)}</td>
                  <td>{timeOf(delivery.created_at)}</td>
                  <td>{timeOf(delivery.delivered_at)}</td>
                  <td>
                    <button type="button" onClick={() => redeliver(delivery)}>
                      Redeliver<span class="visually-hidden"> {delivery.id}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function timeOf(iso: string | null) {
  return <DateTimeText value={iso} />;
}
