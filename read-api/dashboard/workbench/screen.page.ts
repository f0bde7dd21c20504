import type { FullCheckResult } from '../../schemas/full-check-result.schema.js';
import type { ScreenCoverageBody as ScreenCoverage, VerdictBody } from '../../schemas/screen-verdict.body.js';
import { SCREEN_NETWORKS } from '../../../domain/shared/network.js';
import { html, type SafeHtml } from '../html.js';
import { checkTabs } from './check-forms.page.js';
import type { HopUsd } from './hop-usd.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import {
  categoriesSection,
  labelsSection,
  routesSection,
  sanctionsSection,
  tiersSection,
  verdictHead,
  versionsSection,
} from './verdict-sections.js';

export interface ScreenForm {
  readonly address: string;
  readonly network: string;
  readonly kind: 'screen' | 'full';
  readonly error: string | null;
}

/** Screen: an address and a network, a light screen (0.10 USD or 1 unit) or a full check (1.00 USD or 1 unit, on delivery). */
export function screenPage(user: DashboardUser, form: ScreenForm): SafeHtml {
  const radio = (kind: 'screen' | 'full', label: string, hint: string) =>
    html`<label><input type="radio" name="kind" value="${kind}"${form.kind === kind ? html` checked` : ''}> <span>${label} <span class="hint">${hint}</span></span></label>`;
  return layout({
    title: 'Screen an address',
    user,
    section: 'screen',
    body: html`<h1>Screen an address</h1>
${checkTabs('address')}
<p class="lead">Runs the same checks as the API, billed the same way to your account; every call shows in Usage.</p>
${form.error ? html`<p class="error-box" role="alert">${form.error}</p>` : ''}
<form method="post" action="/screen" class="card">
<input type="hidden" name="csrf" value="${user.csrfToken}">
<label for="s-address">Address</label>
<input id="s-address" name="address" type="text" required maxlength="120" spellcheck="false" autocomplete="off" value="${form.address}">
<label for="s-network">Network</label>
<select id="s-network" name="network">${SCREEN_NETWORKS.map((n) => html`<option value="${n}"${n === form.network ? html` selected` : ''}>${n}</option>`)}</select>
<fieldset><legend>Check</legend>
${radio('screen', 'Light screen', 'sanctions and labels, no graph; 0.10 USD or 1 unit')}
${radio('full', 'Full check', 'adds counterparties and graph exposure with evidence routes; 1.00 USD or 1 unit, charged when the result is shown')}
</fieldset>
<div class="actions"><button type="submit">Run</button></div>
</form>`,
  });
}

export interface LightVerdict {
  readonly address: string;
  readonly network: string;
  readonly coverage: ScreenCoverage;
  readonly verdict: VerdictBody;
  readonly charged: string;
  readonly at: string;
}

export function lightVerdictPage(user: DashboardUser, v: LightVerdict): SafeHtml {
  return layout({
    title: `Light screen of ${v.address}`,
    user,
    section: 'screen',
    body: html`<p class="no-print"><a href="/screen">← Screen another address</a> · Use your browser's Print for a report of this verdict.</p>
<h1>Light screen</h1>
<p class="lead"><code class="break">${v.address}</code> on ${v.network}. ${v.charged}</p>
${v.coverage.data_available ? '' : html`<p class="error-box">No data exists for this address: treat it as unknown, not clean.</p>`}
${verdictHead(v.verdict)}
${sanctionsSection(v.verdict, v.coverage.sanctions)}
${labelsSection(v.verdict)}
${categoriesSection(v.verdict)}
${versionsSection(v.coverage, v.at)}`,
  });
}

/** `hops`: the USD per hop of each drawn evidence route (verdict-sections.ts, drawnRoutes). */
export function fullVerdictPage(user: DashboardUser, r: FullCheckResult, charged: string, hops: readonly (readonly HopUsd[])[]): SafeHtml {
  return layout({
    title: `Full check of ${r.address}`,
    user,
    section: 'screen',
    body: html`<p class="no-print"><a href="/screen">← Screen another address</a> · Use your browser's Print for a report of this verdict.</p>
<h1>Full check</h1>
<p class="lead"><code class="break">${r.address}</code> on ${r.network}. ${charged}</p>
${verdictHead(r.verdict, r.decision)}
<p>${r.decision_reason}</p>
${sanctionsSection(r.verdict, r.coverage.sanctions)}
${tiersSection(r)}
${routesSection(r, hops)}
${labelsSection(r.verdict)}
${categoriesSection(r.verdict)}
${versionsSection(r.coverage, r.completed_at)}`,
  });
}

/** A check still running: the page reloads itself (meta refresh, no script) until the verdict is there. */
export function runningPage(user: DashboardUser, href: string, what = 'full check'): SafeHtml {
  return layout({
    title: `The ${what} is running`,
    user,
    section: 'screen',
    refreshSeconds: 2,
    body: html`<h1>The ${what} is running</h1>
<p class="lead" role="status">This page reloads itself every 2 seconds;
nothing is charged until the result is shown.</p>
<p><a href="${href}">Reload now</a></p>`,
  });
}
