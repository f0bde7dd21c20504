import type { ChangeReason } from '../../../domain/intel/change-reason.js';
import type { MonitorVerdict } from '../../../domain/monitors/monitor-verdict.js';
import { SCREEN_NETWORKS } from '../../../domain/shared/network.js';
import type { MonitorDoc } from '../../../projections/monitors.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, shortHash, utc } from './format.js';

export interface MonitorForm {
  readonly address: string;
  readonly network: string;
  readonly reference: string;
  readonly error: string | null;
}

export interface MonitorListView {
  readonly rows: readonly MonitorDoc[];
  readonly total: number;
  readonly page: number;
  readonly totalPages: number;
  readonly form: MonitorForm;
}

/** What made the service look again, in words. */
function reasonWords(reason: ChangeReason): string {
  switch (reason.change) {
    case 'dataset_imported':
      return `${reason.source} ${reason.version ?? ''} was imported`.replace('  ', ' ');
    case 'curator_entry_added':
      return `a curated entry was added${reason.version ? ` (${reason.version})` : ''}`;
    case 'curator_entry_retracted':
      return `a curated entry was retracted${reason.version ? ` (${reason.version})` : ''}`;
    case 'monitor_resumed':
      return 'the monitor was resumed';
  }
}

/** A verdict in one line: its level, and the sanctions match or label that makes it. */
function verdictLine(v: MonitorVerdict): SafeHtml {
  const match = v.sanctionsMatch;
  const what = match ? `${match.list}: ${match.entity ?? 'listed'}` : v.label;
  return html`${levelBadge(v.riskLevel)}${v.riskCategories.length > 0 ? html` <code>${v.riskCategories.join(', ')}</code>` : ''}${what ? html` ${what}` : ''}`;
}

function addForm(user: DashboardUser, form: MonitorForm): SafeHtml {
  return html`<form method="post" action="/monitors" class="card" aria-labelledby="add-title">
<h2 id="add-title">Watch an address</h2>
${form.error ? html`<p class="error-box" role="alert">${form.error}</p>` : ''}
<input type="hidden" name="csrf" value="${user.csrfToken}">
<label for="m-address">Address</label>
<input id="m-address" name="address" type="text" required maxlength="120" spellcheck="false" autocomplete="off" value="${form.address}">
<label for="m-network">Network</label>
<select id="m-network" name="network">${SCREEN_NETWORKS.map((n) => html`<option value="${n}"${n === form.network ? html` selected` : ''}>${n}</option>`)}</select>
<label for="m-reference">Reference <span class="hint">your own name for it (a customer id), optional</span></label>
<input id="m-reference" name="reference" type="text" maxlength="200" autocomplete="off" value="${form.reference}">
<div class="actions"><button type="submit">Watch</button><span class="hint">charged per address per month, as <code>POST /v2/monitors</code>; an address already watched is not charged again</span></div>
</form>`;
}

function table(view: MonitorListView): SafeHtml {
  if (view.rows.length === 0) return html`<p>No address is watched yet.</p>`;
  return html`<div class="table-wrap"><table class="fit stack"><caption class="sr-only">Watched addresses, newest first</caption>
<thead><tr><th scope="col">Address</th><th scope="col">Verdict</th><th scope="col">Status</th><th scope="col">Last change</th><th scope="col">Reference</th></tr></thead>
<tbody>${view.rows.map(
    (
      m,
    ) => html`<tr><td data-label="Address"><a href="/monitors/${m.monitor_id}">${shortHash(m.address)}</a> <span class="hint">${m.network}</span></td>
<td class="wrap" data-label="Verdict">${verdictLine(m.verdict)}</td><td data-label="Status">${m.status}${m.paused_reason ? html`<span class="hint">${m.paused_reason}</span>` : ''}</td>
<td data-label="Last change">${m.last_changed_at ? utc(m.last_changed_at) : 'none yet'}</td><td class="wrap" data-label="Reference">${m.reference ?? '—'}</td></tr>`,
  )}</tbody></table></div>`;
}

function pager(view: MonitorListView): SafeHtml {
  if (view.totalPages <= 1) return html``;
  return html`<nav class="pager" aria-label="Pages of monitors">
${view.page > 1 ? html`<a href="/monitors?page=${view.page - 1}" rel="prev">← Newer</a>` : ''}
<span>Page ${view.page} of ${view.totalPages} (${view.total} monitors)</span>
${view.page < view.totalPages ? html`<a href="/monitors?page=${view.page + 1}" rel="next">Older →</a>` : ''}
</nav>`;
}

/** Monitors: the watched addresses with their current verdict, and a form to watch one more. */
export function monitorsPage(user: DashboardUser, view: MonitorListView): SafeHtml {
  return layout({
    title: 'Monitors',
    user,
    section: 'monitors',
    body: html`<h1>Monitors</h1>
<p class="lead">A watched address is screened again whenever the intelligence changes (a new sanctions list, a new label);
a change of its verdict is kept in its history and sent to your webhooks (<code>service.address.risk_changed</code>). The same monitors are at <code>GET /v2/monitors</code>.</p>
${addForm(user, view.form)}
<h2>Watched addresses</h2>
${pager(view)}
${table(view)}
${pager(view)}`,
  });
}

/** One monitor: its verdict now, the data it was judged on, and every change with what caused it. */
export function monitorPage(user: DashboardUser, m: MonitorDoc): SafeHtml {
  const v = m.data_versions;
  return layout({
    title: `Monitor of ${m.address}`,
    user,
    section: 'monitors',
    body: html`<p class="no-print"><a href="/monitors">← Monitors</a></p>
<h1>Monitor</h1>
<p class="lead"><code class="break">${m.address}</code> on ${m.network}${m.reference ? html`, reference <strong>${m.reference}</strong>` : ''}.</p>
<dl class="facts">
<div><dt>Verdict now</dt><dd>${verdictLine(m.verdict)}</dd></div>
<div><dt>Status</dt><dd>${m.status}${m.paused_reason ? html` (${m.paused_reason})` : ''}</dd></div>
<div><dt>Watched since</dt><dd>${utc(m.created_at)}</dd></div>
<div><dt>Last evaluated</dt><dd>${utc(m.last_evaluated_at)}</dd></div>
<div><dt>Paid period</dt><dd>from ${m.paid_period.slice(0, 10)}</dd></div>
<div><dt>Data versions</dt><dd>taxonomy ${v.taxonomy}${v.sources.length === 0 ? '; no source knows this address' : html`; ${v.sources.map((s, i) => html`${i ? ', ' : ''}${s.source} ${s.version}`)}`}</dd></div>
</dl>
<section aria-labelledby="mh-title"><h2 id="mh-title">History of changes</h2>
${
  m.history.length === 0
    ? html`<p>No change since it was watched: the verdict above is the one it started with.</p>`
    : html`<ol class="trail">${[...m.history].reverse().map(
        (change) => html`<li><time datetime="${change.at}">${utc(change.at)}</time><br>
${verdictLine(change.previous)} → ${verdictLine(change.current)}
<span class="hint">because ${change.reasons.map(reasonWords).join('; ')}</span></li>`,
      )}</ol>`
}
</section>
<form data-api="/api/monitors/${m.monitor_id}" data-method="DELETE" data-confirm="Stop watching this address? The month already paid is not refunded." data-next="/monitors" class="no-print">
<div class="actions"><button type="submit" class="danger">Stop watching</button></div>
<p class="status" data-status role="status" aria-live="polite"></p>
</form>`,
  });
}
