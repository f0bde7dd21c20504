import type { AlertCaseDoc } from '../../../projections/alert-cases.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, shortHash, statusBadge } from './format.js';
import {
  legsTable,
  money,
  sendersSection,
  transactionFacts,
  transferVersions,
  type RoutesWithHops,
  type TransferResultView,
} from './transfer-evidence.js';

export type { TransferResultView } from './transfer-evidence.js';

/**
 * A transfer check's verdict: the composite and the policy's recommendation, each alert with the
 * senders it rests on and its case, the transaction and its legs, each sender with its own verdict,
 * exposure and routes, and the data versions.
 */
export function transferVerdictPage(
  user: DashboardUser,
  r: TransferResultView,
  cases: readonly AlertCaseDoc[],
  charged: string,
  drawn: RoutesWithHops,
): SafeHtml {
  const c = r.composite_result;
  const p = r.policy_result;
  const caseOf = (index: number) => cases.find((doc) => doc.alertIndex === index);
  return layout({
    title: `Transfer check ${r.tx_hash}`,
    user,
    section: 'history',
    body: html`<p class="no-print"><a href="/history">← History</a> · <a href="/checks/transfer">Check another transfer</a> · Use your browser's Print for a report of this verdict.</p>
<h1>Transfer check</h1>
<p class="lead">${r.chain} transaction <code class="break">${r.tx_hash}</code>. ${charged}</p>
<div class="stats">
<div class="stat"><div class="label">Worst alert</div><div class="value">${levelBadge(p.worst_level ?? 'none')}</div></div>
<div class="stat"><div class="label">Recommended action</div><div class="value">${p.recommended_action}</div></div>
<div class="stat"><div class="label">Composite score</div><div class="value">${c.risk_score}<span class="hint">of 10, ${c.risk_level}</span></div></div>
<div class="stat"><div class="label">Value</div><div class="value">${money(c.total_usd)}</div></div>
</div>
${c.unknown_share > 0 ? html`<p class="hint">${c.unknown_share}% of the value comes from senders no source knows and whose funds could not be traced: unknown, not clean.</p>` : ''}
<section aria-labelledby="ta-title"><h2 id="ta-title">Alerts</h2>
${
  p.alerts.length === 0
    ? html`<p>The ${p.policy} policy raised no alert.</p>`
    : html`<div class="table-wrap"><table class="fit stack"><caption class="sr-only">Alerts of this check, with the senders they rest on and their cases</caption>
<thead><tr><th scope="col">Level</th><th scope="col">Category</th><th scope="col">Rule</th><th scope="col" class="num">Share</th><th scope="col" class="num">USD</th><th scope="col">Senders</th><th scope="col">Case</th></tr></thead>
<tbody>${p.alerts.map((a, i) => {
        const doc = caseOf(i);
        const why = p.explanations[i];
        const senders = why?.senders ?? (a.entityAddress ? [a.entityAddress] : []);
        return html`<tr><td data-label="Level">${levelBadge(a.riskLevel)}</td><td class="wrap" data-label="Category">${a.category}</td><td data-label="Rule">${a.ruleType}</td><td class="num" data-label="Share">${a.actualShare}%</td>
<td class="num" data-label="USD">${why ? money(why.exposure_usd) : '—'}</td>
<td data-label="Senders">${senders.map((address, n) => html`${n ? html`<br>` : ''}<a href="#sender-${address.toLowerCase()}">${shortHash(address)}</a>`)}</td>
<td data-label="Case">${doc ? html`<a href="/alerts/${doc.alertId}">${statusBadge(doc.status)}<span class="sr-only"> case of the ${a.category} alert</span></a>` : html`<span class="hint">being opened: reload</span>`}</td></tr>`;
      })}</tbody></table></div>`
}
</section>
<section aria-labelledby="tx-title"><h2 id="tx-title">Transaction</h2>${transactionFacts(r)}
<h3>Legs</h3>${legsTable(r)}</section>
<section aria-labelledby="ts-title"><h2 id="ts-title">Senders</h2>
<p class="hint">Each sender's verdict is its own exposure: what it is (direct), and where its incoming funds came from (traced hop by hop through the transfer data). The alerts above are raised on these very figures.</p>
${sendersSection(r, drawn)}
</section>
<section aria-labelledby="tv-title"><h2 id="tv-title">Verdict time and data versions</h2>${transferVersions(r)}</section>`,
  });
}

/** A check that failed (the transaction is not on the chain, or could not be read): nothing was charged. */
export function transferFailedPage(user: DashboardUser, checkId: string, message: string): SafeHtml {
  return transferNoticePage(user, checkId, 'Transfer check failed', `${message}. Nothing was charged.`);
}

/** A result this page cannot read (recorded without the fields it shows): the API still serves it whole. */
export function transferUnreadablePage(user: DashboardUser, checkId: string): SafeHtml {
  return transferNoticePage(
    user,
    checkId,
    'Transfer check',
    `This result cannot be shown here; GET /v2/transfer/${checkId}/result serves it.`,
  );
}

function transferNoticePage(user: DashboardUser, checkId: string, title: string, message: string): SafeHtml {
  return layout({
    title,
    user,
    section: 'history',
    body: html`<p class="no-print"><a href="/checks/transfer">← Check a transfer</a> · <a href="/history">History</a></p>
<h1>${title}</h1>
<p class="error-box" role="alert">${message}</p>
<p class="hint">Check <code class="break">${checkId}</code></p>`,
  });
}
