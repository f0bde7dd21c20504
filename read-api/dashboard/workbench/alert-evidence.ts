import type { AlertCaseDoc } from '../../../projections/alert-cases.projection.js';
import { html, type SafeHtml } from '../html.js';
import { levelBadge, utc } from './format.js';
import {
  legsTable,
  money,
  sendersSection,
  transactionFacts,
  type RoutesWithHops,
  type SenderView,
  type TransferResultView,
} from './transfer-evidence.js';

/**
 * The evidence behind one alert, for its case page and its printable report: the transfer check's result
 * the alert was raised from, the alert's place in it, and the routes of the senders it rests on.
 */
export interface AlertEvidence {
  readonly result: TransferResultView;
  readonly index: number;
  /** The senders the alert rests on (the rule's explanation, else the alert's entity). */
  readonly senders: readonly SenderView[];
  readonly drawn: RoutesWithHops;
}

/** The senders of `result` an alert rests on, the most USD first. */
export function alertSenders(result: TransferResultView, index: number): SenderView[] {
  const named = result.policy_result.explanations[index]?.senders;
  const entity = result.policy_result.alerts[index]?.entityAddress;
  const addresses = named ?? (entity ? [entity] : []);
  return result.composite_result.senders.filter((s) => addresses.includes(s.address));
}

/** What fired and why: the rule with its note, the share and USD against its thresholds, the entity, the transaction. */
export function alertFacts(doc: AlertCaseDoc, evidence: AlertEvidence | null): SafeHtml {
  const a = doc.alert;
  const why = evidence?.result.policy_result.explanations[evidence.index];
  const r = evidence?.result;
  return html`<dl class="facts">
<div><dt>Risk level</dt><dd>${levelBadge(a.riskLevel)}</dd></div>
<div><dt>Category</dt><dd>${a.category}</dd></div>
<div><dt>Rule</dt><dd>${why ? html`${why.rule_id} · ` : ''}${a.ruleType}${why ? html`<span class="hint">${why.note}</span>` : ''}</dd></div>
<div><dt>Share of the transfer</dt><dd>${a.actualShare}% <span class="hint">the rule fires from ${a.thresholdShare}% and ${money(a.thresholdValue)}</span></dd></div>
${why ? html`<div><dt>Exposure</dt><dd>${money(why.exposure_usd)}${r ? html` of the transfer's ${money(r.composite_result.total_usd)}` : ''}</dd></div>` : ''}
<div><dt>Entity</dt><dd>${entityLine(a.entityName, a.entityAddress)}</dd></div>
<div><dt>Transaction</dt><dd>${doc.chain} <code class="break">${doc.txHash}</code></dd></div>
${r ? html`<div><dt>Block time</dt><dd>${utc(r.transaction.block_time)} <span class="hint">block ${r.transaction.block_number}</span></dd></div>` : ''}
<div><dt>Transfer check</dt><dd><a href="/checks/transfer/${doc.checkId}"><code class="break">${doc.checkId}</code></a> <span class="hint">checked ${utc(doc.checkedAt)}</span></dd></div>
</dl>`;
}

/** The transaction, the senders the alert rests on with their routes, and the legs: the body of the case file. */
export function evidenceSections(evidence: AlertEvidence | null): SafeHtml {
  if (!evidence)
    return html`<section aria-labelledby="ev-title"><h2 id="ev-title">Evidence</h2><p>The transfer check's result is not available.</p></section>`;
  const r = evidence.result;
  const only = evidence.senders.map((s) => s.address);
  return html`<section aria-labelledby="tx-title"><h2 id="tx-title">Transaction</h2>${transactionFacts(r)}</section>
<section aria-labelledby="ev-title"><h2 id="ev-title">Evidence: the ${only.length === 1 ? 'sender' : 'senders'} the alert rests on</h2>
${only.length === 0 ? html`<p>The alert names no sender of the transfer (a pattern of the transaction itself).</p>` : sendersSection(r, evidence.drawn, only)}
</section>
<section aria-labelledby="legs-title"><h2 id="legs-title">Legs of the transaction</h2>${legsTable(r)}</section>`;
}

/** The alert's entity: its name, and its address below unless the name already spells it out. */
function entityLine(name: string | null, address: string | null): SafeHtml {
  const shown = address && !name?.includes(address) ? html`<br><code class="break">${address}</code>` : html``;
  return html`${name ?? 'no name known'}${shown}`;
}
