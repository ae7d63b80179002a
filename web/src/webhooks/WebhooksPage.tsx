// `/projects/{p}/webhooks`: where the project's change requests and waiting
// proposals are posted (Slack, a chat server, a pager), and how each delivery
// went. Admins add a hook (URL and events; its signing secret is shown this
// once), remove one, and redeliver a delivery.
import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type WebhookEvent, type WebhookResponse } from '../../../src/wire/webhook';
import { api } from '../api/client';
import { useProject } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import { Failure } from '../pages/Failure';
import { ALLOWED } from '../ui/permission';
import { ActionButton } from '../ui/ActionButton';
import { TableNote } from '../ui/TableNote';
import { shortTime } from '../ui/time';
import { newestFailure, useAction } from '../ui/useAction';
import { useDeliveries, useWebhooks, webhooksPath } from './queries';
import './webhooks.css';

const EVENT_LABELS: Record<WebhookEvent, string> = {
  'change_request.opened': 'Request opened',
  'change_request.partially_approved': 'Each approval while more are needed',
  'change_request.approved': 'Approved',
  'change_request.declined': 'Declined',
  'change_request.stale': 'Stale',
  'change_request.expired': 'Expired',
  'proposal.waiting': 'Proposal waiting',
};

export function WebhooksPage({ params }: { params: { project: string } }) {
  const project = decodeURIComponent(params.project);
  const role = useProject(project).data?.role;
  const admin = role === 'admin';
  const hooks = useWebhooks(project, admin);
  const deliveries = useDeliveries(project, admin);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['change_request.opened']);
  const changes = [queryKeys.webhooks(project), queryKeys.webhookDeliveries(project)];
  const add = useAction({
    mutationFn: () => api<WebhookResponse>('POST', webhooksPath(project), { url: url.trim(), events }),
    onSuccess: () => setUrl(''),
    changes,
  });
  const remove = useAction({ mutationFn: (id: string) => api<null>('DELETE', `${webhooksPath(project)}/${id}`), changes });
  const redeliver = useAction({
    mutationFn: (id: string) => api<unknown>('POST', `/api/v1/projects/${encodeURIComponent(project)}/webhook-deliveries/${id}/redeliver`),
    changes,
  });
  const urlOf = new Map((hooks.data ?? []).map((h) => [h.id, h.url]));
  // Adding says what went wrong beside its own button; a row's action, above the list.
  const failure = newestFailure(remove, redeliver);

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate();
  }

  if (role !== undefined && !admin) {
    return (
      <section aria-labelledby="title">
        <h1 id="title">Webhooks</h1>
        <p className="muted">Only admins see and manage webhooks: you need environment:manage on {project}; your role there is {role}.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="title">
      <h1 id="title">Webhooks</h1>
      <p className="muted">
        Each event is posted as JSON whose <code>text</code> a Slack-compatible incoming webhook shows as is, signed in <code>X-Aion-Signature</code>, and
        retried with backoff until the receiver answers 2xx.
      </p>
      {hooks.error && <Failure error={hooks.error} />}
      {failure && <Failure error={failure} />}
      {add.data?.secret && (
        <p role="status" className="secret-once">
          Signing secret of the hook to {add.data.url} — copy it now, it is not shown again: <code>{add.data.secret}</code>
        </p>
      )}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Added</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <TableNote columns={4} loading={hooks.isPending} empty={hooks.data?.length === 0}>
            No webhooks yet.
          </TableNote>
          {hooks.data?.map((h) => (
            <tr key={h.id}>
              <td className="webhook-url">
                <code>{h.url}</code>
                {!h.active && <span className="muted"> (off)</span>}
              </td>
              <td>{h.events.map((e) => EVENT_LABELS[e]).join(', ')}</td>
              <td>
                {h.created_by ?? 'someone'} <span className="muted">{shortTime(h.created_at)}</span>
              </td>
              <td>
                <ActionButton permission={ALLOWED} disabled={remove.isPending} aria-label={`Remove the hook to ${h.url}`} onClick={() => remove.mutate(h.id)}>
                  Remove
                </ActionButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="webhook-form" onSubmit={submit} aria-label="Add a webhook">
        <div className="row">
          <label htmlFor="webhook-url">URL</label>
          <input id="webhook-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hooks.slack.com/services/…" required />
        </div>
        <fieldset className="webhook-events">
          <legend>Events</legend>
          <div className="choices">
            {WEBHOOK_EVENTS.map((e) => (
              <label key={e}>
                <input
                  type="checkbox"
                  checked={events.includes(e)}
                  onChange={(change) => setEvents(change.target.checked ? [...events, e] : events.filter((x) => x !== e))}
                />
                {EVENT_LABELS[e]}
              </label>
            ))}
          </div>
        </fieldset>
        <ActionButton permission={ALLOWED} type="submit" disabled={add.isPending || events.length === 0}>
          Add webhook
        </ActionButton>
        {add.error && <Failure error={add.error} />}
      </form>
      <h2>Recent deliveries</h2>
      {deliveries.error && <Failure error={deliveries.error} />}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">What</th>
            <th scope="col">Status</th>
            <th scope="col">Tries</th>
            <th scope="col">Last answer</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <TableNote columns={6} loading={deliveries.isPending} empty={deliveries.data?.length === 0}>
            Nothing sent yet.
          </TableNote>
          {deliveries.data?.map((d) => (
            <tr key={d.id}>
              <td className="muted webhook-when">{shortTime(d.created_at)}</td>
              <td>
                {d.summary} <span className="muted">to {urlOf.get(d.webhook) ?? 'a removed hook'}</span>
              </td>
              <td className={d.status === 'failed' ? 'error-text' : d.status === 'delivered' ? 'ok' : undefined}>
                {d.status === 'pending' && d.next_attempt_at ? `retrying ${shortTime(d.next_attempt_at)}` : d.status}
              </td>
              <td>{d.attempts}</td>
              <td>{d.last_error ?? (d.last_status_code === null ? '' : String(d.last_status_code))}</td>
              <td>
                <ActionButton permission={ALLOWED} disabled={redeliver.isPending} aria-label={`Redeliver: ${d.summary}`} onClick={() => redeliver.mutate(d.id)}>
                  Redeliver
                </ActionButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
