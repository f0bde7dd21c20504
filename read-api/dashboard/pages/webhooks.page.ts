import { present } from '../../../domain/shared/present.js';
import { ALERT_LEVELS, WEBHOOK_EVENT_TYPES, type AlertLevel, type WebhookEventType } from '../../../domain/webhooks/webhook-event-types.js';
import type { WebhookAttemptDoc, WebhookDeliveryDoc } from '../../../projections/webhook-deliveries.projection.js';
import type { SubgroupDoc } from '../../../projections/subgroups.projection.js';
import type { WebhookSubscriptionDoc } from '../../../projections/webhook-subscriptions.projection.js';
import { html, type SafeHtml } from '../html.js';
import type { DashboardUser } from '../session-auth.js';
import { layout, shortDate } from './layout.js';

export interface WebhookView {
  readonly subscription: WebhookSubscriptionDoc;
  /** Newest first: deliveries not tried yet, then the last attempts (at most 100 rows). */
  readonly history: readonly HistoryRow[];
}

export type HistoryRow =
  { readonly kind: 'pending'; readonly delivery: WebhookDeliveryDoc } | { readonly kind: 'attempt'; readonly attempt: WebhookAttemptDoc };

export interface WebhooksView {
  readonly subgroups: readonly SubgroupDoc[];
  readonly selected: SubgroupDoc | null;
  /** Only members of the subgroup create subscriptions in it (group admins and super-admins manage them). */
  readonly mayCreate: boolean;
  readonly webhooks: readonly WebhookView[];
}

const EVENT_LABELS: Record<WebhookEventType, string> = {
  'tx.policy.alert.triggered': 'Transfer policy alert',
  'service.bfs.completed': 'Graph exposure job completed',
  'service.bfs.failed': 'Graph exposure job failed',
  'service.check.high_risk': 'Address check found high risk',
  'service.address.risk_changed': 'Monitored address risk changed',
};

const subgroupLabel = (s: SubgroupDoc) => `${s.organizationName} / ${s.subgroupName}`;

function eventTypeFields(idPrefix: string, checked: readonly WebhookEventType[]): SafeHtml {
  return html`<fieldset><legend>Event types</legend>${WEBHOOK_EVENT_TYPES.map(
    (
      type,
    ) => html`<label><input type="checkbox" name="event_types" value="${type}" data-list${checked.includes(type) ? html` checked` : ''} id="${idPrefix}-${type}">
<span>${EVENT_LABELS[type]} <code class="hint">${type}</code></span></label>`,
  )}</fieldset>`;
}

function levelField(id: string, selected: AlertLevel): SafeHtml {
  return html`<label for="${id}">Minimum alert level <span class="hint">transfer alerts below it are not sent</span></label>
<select id="${id}" name="alert_min_level">${ALERT_LEVELS.map((level) => html`<option value="${level}"${level === selected ? html` selected` : ''}>${level}</option>`)}</select>`;
}

/** A secret shown once, after creation or rotation. */
function secretPanel(id: string, title: string): SafeHtml {
  return html`<section id="${id}" class="reveal" hidden aria-label="${title}">
<h4>${title}</h4>
<p>Shown this once: store it where your receiver verifies signatures.</p>
<div class="secret"><label class="sr-only" for="${id}-value">${title}</label>
<input id="${id}-value" type="text" readonly data-secret spellcheck="false" autocomplete="off">
<button type="button" class="secondary" data-copy="#${id}-value">Copy</button><span data-copy-status role="status" aria-live="polite"></span></div>
</section>`;
}

function statusBadge(status: string): SafeHtml {
  const kind = status === 'delivered' ? 'ok' : status === 'pending' ? 'warn' : status === 'failed' ? 'warn' : 'bad';
  return html`<span class="badge ${kind}">${status === 'gave_up' ? 'gave up' : status}</span>`;
}

/** A payload's first characters on one line; the 200-character preview opens on demand (a hundred rows stay a hundred lines). */
function payloadPreview(preview: string): SafeHtml {
  return html`<details class="preview"><summary><code>${preview.slice(0, 40)}${preview.length > 40 ? '…' : ''}</code></summary><code>${preview}</code></details>`;
}

/** The attempts scroll inside a box of bounded height (reachable from the keyboard), so the page does not grow with them. */
function historyTable(rows: readonly HistoryRow[]): SafeHtml {
  if (rows.length === 0) return html`<p>No deliveries yet. Send a test event to try the endpoint.</p>`;
  return html`<div class="table-wrap history" tabindex="0" role="region" aria-label="Delivery history, scrollable"><table class="stack">
<caption class="sr-only">Delivery history: the last 100 attempts, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col" class="num">Attempt</th><th scope="col">Status</th>
<th scope="col" class="num">HTTP</th><th scope="col">Error or payload preview</th></tr></thead>
<tbody>${rows.map((row) =>
    row.kind === 'pending'
      ? html`<tr data-delivery="${row.delivery.delivery_id}"><td data-label="Time">${shortDate(row.delivery.created_at)}</td><td data-label="Event"><code>${row.delivery.event_type}</code>${row.delivery.synthetic ? html` <span class="badge off">test</span>` : ''}</td>
<td class="num" data-label="Attempt">—</td><td data-label="Status">${statusBadge('pending')}</td><td class="num" data-label="HTTP">—</td><td class="wrap" data-label="Detail">queued, not tried yet</td></tr>`
      : html`<tr data-delivery="${row.attempt.delivery_id}"><td data-label="Time">${shortDate(row.attempt.attempted_at)}</td><td data-label="Event"><code>${row.attempt.event_type}</code></td>
<td class="num" data-label="Attempt">${row.attempt.attempt}</td><td data-label="Status">${statusBadge(row.attempt.status)}</td><td class="num" data-label="HTTP">${row.attempt.http_status ?? '—'}</td>
<td class="preview" data-label="Detail">${row.attempt.error ? html`<span class="status error">${row.attempt.error}</span>` : payloadPreview(row.attempt.payload_preview)}</td></tr>`,
  )}</tbody></table></div>`;
}

function webhookCard({ subscription: s, history }: WebhookView): SafeHtml {
  const id = s.id;
  return html`<article class="card" id="webhook-${id}" aria-labelledby="webhook-${id}-title">
<h3 id="webhook-${id}-title"><code>${s.url}</code></h3>
<p class="hint">${s.description ? html`${s.description} · ` : ''}${s.event_types.join(', ')} · minimum level ${s.alert_min_level} · created ${shortDate(s.created_at)}${
    s.secret_rotated_at ? html` · secret rotated ${shortDate(s.secret_rotated_at)}` : ''
  }</p>
<div class="actions">
<form data-api="/api/webhooks/test" data-refresh="#history-${id}" data-poll="#history-${id}" data-success="Test event queued: watch the history below.">
<input type="hidden" name="subscription_id" value="${id}"><button type="submit" aria-label="Send a test event to ${s.url}">Send test event</button>
<span class="status" data-status role="status" aria-live="polite"></span></form>
<form data-api="/api/webhooks/${id}/rotate-secret" data-reveal="#secret-${id}" data-reveal-field="secret"
  data-confirm="Rotate the signing secret? The old one keeps signing for 24 hours." data-success="New secret made: copy it now.">
<button type="submit" class="secondary" aria-label="Rotate the secret of ${s.url}">Rotate secret</button>
<span class="status" data-status role="status" aria-live="polite"></span></form>
<form data-api="/api/webhooks/${id}" data-method="DELETE" data-refresh="#webhooks" data-confirm="Delete this webhook? Pending retries stop.">
<button type="submit" class="danger" aria-label="Delete the webhook ${s.url}">Delete</button>
<span class="status" data-status role="status" aria-live="polite"></span></form>
</div>
${secretPanel(`secret-${id}`, 'New signing secret')}
<details><summary>Edit event types, level and URL</summary>
<form data-api="/api/webhooks/${id}" data-method="PATCH" data-refresh="#webhooks" data-success="Saved.">
<label for="url-${id}">Endpoint URL</label><input id="url-${id}" name="url" type="url" required value="${s.url}">
${eventTypeFields(`edit-${id}`, s.event_types)}
${levelField(`level-${id}`, s.alert_min_level)}
<div class="actions"><button type="submit">Save changes</button></div>
<p class="status" data-status role="status" aria-live="polite"></p></form>
</details>
<h4 id="history-${id}-title">Delivery history <span class="hint">last 100 attempts</span></h4>
<div id="history-${id}" aria-labelledby="history-${id}-title">${historyTable(history)}</div>
<form class="after-table" data-refresh-region="#history-${id}"><button type="submit" class="link">Refresh history</button></form>
</article>`;
}

function createForm(subgroup: SubgroupDoc): SafeHtml {
  return html`<section class="card" aria-labelledby="create-title"><h2 id="create-title">Add a webhook</h2>
<form data-api="/api/webhooks" data-reveal="#secret-new" data-reveal-field="secret" data-refresh="#webhooks" data-reset data-success="Webhook added. Copy its secret now.">
<input type="hidden" name="subgroup_id" value="${subgroup.subgroupId}">
<label for="new-url">Endpoint URL <span class="hint">HTTPS; it must answer 2xx within 10 seconds</span></label>
<input id="new-url" name="url" type="url" required placeholder="https://example.com/hooks/risk">
<label for="new-description">Description <span class="hint">optional</span></label>
<input id="new-description" name="description" type="text" maxlength="200">
${eventTypeFields('new', ['tx.policy.alert.triggered'])}
${levelField('new-level', 'Medium')}
<div class="actions"><button type="submit">Add webhook</button></div>
<p class="status" data-status role="status" aria-live="polite"></p>
</form>
${secretPanel('secret-new', 'Signing secret of the new webhook')}
</section>`;
}

function subgroupPicker(view: WebhooksView): SafeHtml {
  if (view.subgroups.length < 2 || !view.selected) return html``;
  return html`<form class="inline-form" method="get" action="/webhooks">
<div><label for="subgroup">Subgroup</label><select id="subgroup" name="subgroup">${view.subgroups.map(
    (s) =>
      html`<option value="${s.subgroupId}"${s.subgroupId === present(view.selected, 'returned early above when nothing is selected').subgroupId ? html` selected` : ''}>${subgroupLabel(s)}</option>`,
  )}</select></div><button type="submit" class="secondary">Show</button></form>`;
}

/** Webhooks of one subgroup: list, create, edit, rotate the secret, test, delivery history. */
export function webhooksPage(user: DashboardUser, view: WebhooksView): SafeHtml {
  const { selected } = view;
  const body = !selected
    ? html`<h1>Webhooks</h1><p class="lead">Webhooks belong to a subgroup, and your account belongs to none yet. Ask an operator to add you to
your team's subgroup (<code>npm run cli -- account join</code>).</p>`
    : html`<h1>Webhooks <span class="hint">${subgroupLabel(selected)}</span></h1>
<p class="lead">Risk events are posted as signed JSON to these endpoints. Every member of the subgroup, its organization's
group admins and platform super-admins manage them.</p>
${subgroupPicker(view)}
${view.mayCreate ? createForm(selected) : html`<p class="hint">Only members of this subgroup add webhooks to it.</p>`}
<section id="webhooks" aria-labelledby="list-title"><h2 id="list-title">Webhooks of ${selected.subgroupName} (${view.webhooks.length})</h2>
${view.webhooks.length === 0 ? html`<p>None yet.</p>` : view.webhooks.map(webhookCard)}
</section>`;
  return layout({ title: 'Webhooks', user, section: 'webhooks', body });
}
