import { TRANSFER_CHAINS } from '../../../domain/shared/network.js';
import type { CheckHistoryDoc } from '../../../projections/check-history.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, shortHash, utc } from './format.js';
import { checkPageOf } from './usage-links.js';

export const HISTORY_KINDS: Record<string, string> = {
  screen: 'Light screen',
  check_address: 'Full check',
  check_transfer: 'Transfer check',
  inspect: 'Inspect',
  explore: 'Explore',
};
export const HISTORY_LEVELS = ['none', 'low', 'medium', 'high', 'critical', 'sanctioned', 'Low', 'Medium', 'High', 'Severe'] as const;

export interface HistoryView {
  readonly rows: readonly CheckHistoryDoc[];
  readonly total: number;
  readonly page: number;
  readonly totalPages: number;
  readonly filter: { kind?: string; network?: string; risk_level?: string; since?: string; to?: string };
}

const option = (value: string, label: string, selected: string | undefined) =>
  html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${label}</option>`;

function query(filter: HistoryView['filter'], page: number): string {
  const q = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  q.set('page', String(page));
  return `/history?${q.toString()}`;
}

/** History: every charged check of the account, newest first, filtered by kind, network, risk level and a range of days. */
export function historyPage(user: DashboardUser, view: HistoryView): SafeHtml {
  const f = view.filter;
  return layout({
    title: 'History',
    user,
    section: 'history',
    body: html`<h1>History</h1>
<p class="lead">Every check of your account, from the API and from this dashboard; each opens its verdict page.
A light screen keeps a summary of its verdict (level, score, sanctions match, categories); screens run before
the summary was kept show their risk level as unknown.</p>
<form class="inline-form" method="get" action="/history" aria-label="Filter checks">
<div><label for="h-kind">Kind</label><select id="h-kind" name="kind">${option('', 'Any', f.kind)}${Object.entries(HISTORY_KINDS).map(([k, l]) => option(k, l, f.kind))}</select></div>
<div><label for="h-network">Network</label><select id="h-network" name="network">${option('', 'Any', f.network)}${TRANSFER_CHAINS.map((n) => option(n, n, f.network))}</select></div>
<div><label for="h-level">Risk level</label><select id="h-level" name="risk_level">${option('', 'Any', f.risk_level)}${HISTORY_LEVELS.map((l) => option(l, l, f.risk_level))}</select></div>
<div><label for="h-since">Since <span class="hint">first UTC day</span></label><input id="h-since" name="since" type="date" value="${f.since ?? ''}"></div>
<div><label for="h-to">To <span class="hint">last UTC day, included</span></label><input id="h-to" name="to" type="date" value="${f.to ?? ''}"${f.since ? html` min="${f.since}"` : ''}></div>
<button type="submit" class="secondary">Filter</button>
</form>
${
  view.rows.length === 0
    ? html`<p>No checks match.</p>`
    : html`<div class="table-wrap"><table class="fit stack"><caption class="sr-only">Checks, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Kind</th><th scope="col">Network</th><th scope="col">Subject</th><th scope="col">Risk level</th></tr></thead>
<tbody>${view.rows.map((row) => {
        const page = row.kind ? checkPageOf({ product: row.kind, call_id: row.id }) : null;
        const when = row.created_at ? utc(row.created_at) : '—';
        return html`<tr><td data-label="Time">${page ? html`<a href="${page}">${when}</a>` : when}</td><td data-label="Kind">${HISTORY_KINDS[row.kind ?? ''] ?? row.kind ?? '—'}</td><td data-label="Network">${row.network ?? '—'}</td>
<td data-label="Subject">${shortHash(row.subject)}</td><td data-label="Risk level">${row.risk_level ? levelBadge(row.risk_level) : html`<span class="hint">unknown</span>`}</td></tr>`;
      })}</tbody></table></div>`
}
${
  view.totalPages > 1
    ? html`<nav class="pager" aria-label="Pages of checks">${view.page > 1 ? html`<a href="${query(f, view.page - 1)}" rel="prev">← Newer</a>` : ''}
<span>Page ${view.page} of ${view.totalPages} (${view.total} checks)</span>${view.page < view.totalPages ? html`<a href="${query(f, view.page + 1)}" rel="next">Older →</a>` : ''}</nav>`
    : ''
}`,
  });
}
