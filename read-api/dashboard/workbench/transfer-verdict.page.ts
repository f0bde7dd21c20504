import type { AlertCaseDoc } from '../../../projections/alert-cases.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, shortHash, statusBadge, utc } from './format.js';

/** The fields of a transfer check's result this page reads (see domain/kyt/transfer-result.ts). */
export interface TransferResultView {
  readonly check_id: string;
  readonly chain: string;
  readonly tx_hash: string;
  readonly checked_at: string;
  readonly composite_result: {
    readonly total_usd: number;
    readonly risk_score: number;
    readonly risk_level: string;
    readonly unknown_share: number;
    readonly prices: readonly { source: string; as_of: string }[];
    readonly senders: readonly { address: string; label: string | null; usd_value: number; share: number; data_available: boolean }[];
    readonly senders_total: number;
  };
  readonly policy_result: {
    readonly policy: string;
    readonly version: string;
    readonly taxonomy_version: string;
    readonly worst_level: string | null;
    readonly recommended_action: string;
    readonly alerts: readonly { category: string; riskLevel: string; ruleType: string; actualShare: number; entityName: string | null }[];
  };
}

const money = (usd: number) => `$${usd.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/** A transfer check's verdict: the composite, the policy's recommendation, each alert with its case, the senders, and the data versions. */
export function transferVerdictPage(user: DashboardUser, r: TransferResultView, cases: readonly AlertCaseDoc[], charged: string): SafeHtml {
  const c = r.composite_result;
  const p = r.policy_result;
  const caseOf = (index: number) => cases.find((doc) => doc.alertIndex === index);
  return layout({
    title: `Transfer check ${r.tx_hash}`,
    user,
    section: 'history',
    body: html`<p class="no-print"><a href="/history">← History</a> · Use your browser's Print for a report of this verdict.</p>
<h1>Transfer check</h1>
<p class="lead">${r.chain} transaction <code class="break">${r.tx_hash}</code>. ${charged}</p>
<div class="stats">
<div class="stat"><div class="label">Worst alert</div><div class="value">${levelBadge(p.worst_level ?? 'none')}</div></div>
<div class="stat"><div class="label">Recommended action</div><div class="value">${p.recommended_action}</div></div>
<div class="stat"><div class="label">Composite score</div><div class="value">${c.risk_score}<span class="hint">of 10, ${c.risk_level}</span></div></div>
<div class="stat"><div class="label">Value</div><div class="value">${money(c.total_usd)}</div></div>
</div>
<section aria-labelledby="ta-title"><h2 id="ta-title">Alerts</h2>
${
  p.alerts.length === 0
    ? html`<p>The standard policy raised no alert.</p>`
    : html`<div class="table-wrap"><table class="fit"><caption class="sr-only">Alerts of this check, with their cases</caption>
<thead><tr><th scope="col">Level</th><th scope="col">Category</th><th scope="col">Rule</th><th scope="col" class="num">Share</th><th scope="col">Entity</th><th scope="col">Case</th></tr></thead>
<tbody>${p.alerts.map((a, i) => {
        const doc = caseOf(i);
        return html`<tr><td>${levelBadge(a.riskLevel)}</td><td class="wrap">${a.category}</td><td>${a.ruleType}</td><td class="num">${a.actualShare}%</td><td class="wrap">${a.entityName ?? '—'}</td>
<td>${doc ? html`<a href="/alerts/${doc.alertId}">${statusBadge(doc.status)}<span class="sr-only"> case of the ${a.category} alert</span></a>` : '—'}</td></tr>`;
      })}</tbody></table></div>`
}
</section>
<section aria-labelledby="ts-title"><h2 id="ts-title">Senders</h2>
<div class="table-wrap"><table class="fit"><caption class="sr-only">Senders by USD value</caption>
<thead><tr><th scope="col">Sender</th><th scope="col">Known as</th><th scope="col" class="num">USD</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${c.senders.map(
      (s) =>
        html`<tr><td>${shortHash(s.address)}</td><td class="wrap">${s.label ?? (s.data_available ? '—' : html`<span class="hint">no data: unknown, not clean</span>`)}</td><td class="num">${money(s.usd_value)}</td><td class="num">${s.share}%</td></tr>`,
    )}</tbody></table></div>
${c.senders_total > c.senders.length ? html`<p class="hint">${c.senders_total - c.senders.length} more sender(s) in the JSON result.</p>` : ''}
</section>
<section aria-labelledby="tv-title"><h2 id="tv-title">Verdict time and data versions</h2>
<dl class="facts">
<div><dt>Verdict time</dt><dd>${utc(r.checked_at)}</dd></div>
<div><dt>Policy</dt><dd>${p.policy} ${p.version}</dd></div>
<div><dt>Taxonomy version</dt><dd>${p.taxonomy_version}</dd></div>
<div><dt>Prices</dt><dd>${c.prices.length === 0 ? 'none needed' : c.prices.map((x, i) => html`${i ? ', ' : ''}${x.source} (as of ${x.as_of})`)}</dd></div>
<div><dt>Check</dt><dd><code class="break">${r.check_id}</code></dd></div>
</dl></section>`,
  });
}
