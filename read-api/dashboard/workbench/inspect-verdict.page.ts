import type { FinalAudit } from '../../../domain/inspect/final-audit.js';
import type { ProviderAssessment } from '../../../domain/inspect/provider-assessment.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, utc } from './format.js';

/** The fields of an inspect's result this page reads (commands/inspect/deliver-inspect.ts, resultBody). */
export interface InspectResultView {
  readonly check_id: string;
  readonly address: string;
  readonly network: string;
  readonly created_at: string;
  readonly completed_at: string | null;
  readonly audit: FinalAudit;
  readonly providers: Readonly<
    Record<string, { ok: true; assessment: ProviderAssessment; elapsed_ms: number } | { ok: false; error: string; elapsed_ms: number }>
  >;
  readonly waived_providers: readonly string[];
  readonly skipped_providers: readonly string[];
}

const DECISION_WORDS: Record<FinalAudit['decision'], string> = {
  deal: 'Deal: no provider found a risk signal (not proof that the address is clean)',
  review: 'Review: at least one provider raised a risk',
  do_not_deal: 'Do not deal',
};

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** A multi-provider inspect: the synthesized audit, each provider's answer, and which were waived or skipped. */
export function inspectVerdictPage(user: DashboardUser, r: InspectResultView, charged: string): SafeHtml {
  const a = r.audit;
  const providers = Object.entries(r.providers);
  return layout({
    title: `Inspect of ${r.address}`,
    user,
    section: 'history',
    body: html`<p class="no-print"><a href="/history">← History</a> · Use your browser's Print for a report of this verdict.</p>
<h1>Inspect</h1>
<p class="lead"><code class="break">${r.address}</code> on ${r.network}. ${charged}</p>
<div class="stats">
<div class="stat"><div class="label">Decision</div><div class="value">${a.decision.replace(/_/g, ' ')}</div></div>
<div class="stat"><div class="label">Worst level</div><div class="value">${levelBadge(a.worst_risk_level)}</div></div>
<div class="stat"><div class="label">Sanctioned</div><div class="value">${yesNo(a.sanctioned)}</div></div>
<div class="stat"><div class="label">Exchange would flag</div><div class="value">${yesNo(a.exchange_would_flag)}</div></div>
</div>
<p>${DECISION_WORDS[a.decision]}. ${a.providers_agreeing} of ${a.providers_answered} answering provider(s) agree${a.providers_failed > 0 ? `; ${a.providers_failed} failed` : ''}.</p>
<section aria-labelledby="ir-title"><h2 id="ir-title">Why</h2>
<ul>${a.reasons.map((reason) => html`<li class="wrap">${reason}</li>`)}</ul>
${a.risk_categories.length > 0 ? html`<p>Categories: ${a.risk_categories.map((c, i) => html`${i ? ', ' : ''}<code>${c}</code>`)}.</p>` : ''}
${a.disagreements.length > 0 ? html`<p>Disagreeing: ${a.disagreements.map((d, i) => html`${i ? '; ' : ''}${d.provider} (${d.stance === 'risk' ? 'raised a risk' : 'no signal'}, ${d.risk_level})`)}.</p>` : ''}
</section>
<section aria-labelledby="ip-title"><h2 id="ip-title">Providers</h2>
<div class="table-wrap"><table class="fit"><caption class="sr-only">Each provider's answer</caption>
<thead><tr><th scope="col">Provider</th><th scope="col">Answer</th><th scope="col">Level</th><th scope="col">Sanctioned</th><th scope="col" class="num">Time</th></tr></thead>
<tbody>${providers.map(([name, p]) =>
      p.ok
        ? html`<tr><td>${name}</td><td class="wrap">${p.assessment.summary}</td><td>${levelBadge(p.assessment.risk_level)}</td><td>${yesNo(p.assessment.sanctioned)}</td><td class="num">${(p.elapsed_ms / 1000).toFixed(1)} s</td></tr>`
        : html`<tr><td>${name}</td><td class="wrap">failed: ${p.error} <span class="hint">(not charged)</span></td><td>—</td><td>—</td><td class="num">${(p.elapsed_ms / 1000).toFixed(1)} s</td></tr>`,
    )}</tbody></table></div>
${r.waived_providers.length > 0 ? html`<p class="hint">Waived (disabled on this service): ${r.waived_providers.join(', ')}.</p>` : ''}
${r.skipped_providers.length > 0 ? html`<p class="hint">Skipped (network not covered): ${r.skipped_providers.join(', ')}.</p>` : ''}
</section>
<section aria-labelledby="it-title"><h2 id="it-title">Verdict time</h2>
<dl class="facts">
<div><dt>Requested</dt><dd>${utc(r.created_at)}</dd></div>
<div><dt>Verdict time</dt><dd>${r.completed_at ? utc(r.completed_at) : '—'}</dd></div>
<div><dt>Check</dt><dd><code class="break">${r.check_id}</code></dd></div>
</dl></section>`,
  });
}

/** An inspect that produced no verdict (every provider failed, or the time cap passed): nothing was charged. */
export function inspectFailedPage(user: DashboardUser, checkId: string, message: string): SafeHtml {
  return layout({
    title: 'Inspect failed',
    user,
    section: 'history',
    body: html`<p class="no-print"><a href="/history">← History</a></p>
<h1>Inspect failed</h1>
<p class="error-box" role="alert">${message}</p>
<p class="hint">Check <code class="break">${checkId}</code></p>`,
  });
}
