import { ALERT_LEVELS } from '../../../domain/kyt/alert-level.js';
import type { backtestOut } from '../../routes/policies-views.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, utc } from './format.js';
import { policyHref } from './policies.page.js';

type Backtest = ReturnType<typeof backtestOut>;
type Report = NonNullable<Backtest['report']>;
type Tally = Report['candidate'];

/** While the job runs, the page reloads itself this often (a meta refresh: the CSP allows no inline script). */
const REFRESH_SECONDS = 2;

function byLevel(r: Report): SafeHtml {
  const row = (label: string, t: Tally) =>
    html`<tr><th scope="row">${label}</th>${ALERT_LEVELS.map((l) => html`<td class="num" data-label="${l}">${t.by_level[l]}</td>`)}<td class="num" data-label="Alerts">${t.alerts}</td><td class="num" data-label="Checks alerted">${t.checks_with_alerts}</td></tr>`;
  return html`<div class="table-wrap"><table class="fit stack"><caption>Alerts by level over ${r.checks} checks</caption>
<thead><tr><th scope="col">Policy</th>${ALERT_LEVELS.map((l) => html`<th scope="col">${l}</th>`)}<th scope="col">Alerts</th><th scope="col">Checks alerted</th></tr></thead>
<tbody>${row('Backtested', r.candidate)}${row('Active policy', r.baseline)}${row('Raised when checked', r.raised)}</tbody></table></div>`;
}

function byRule(r: Report): SafeHtml {
  const key = (x: { rule_id: string; alert_level: string }) => `${x.rule_id}|${x.alert_level}`;
  const active = new Map(r.baseline.by_rule.map((x) => [key(x), x.alerts]));
  const rows = [...r.candidate.by_rule, ...r.baseline.by_rule.filter((x) => !r.candidate.by_rule.some((c) => key(c) === key(x)))];
  if (rows.length === 0) return html`<p>Neither policy raises an alert on these checks.</p>`;
  const candidate = new Map(r.candidate.by_rule.map((x) => [key(x), x.alerts]));
  return html`<div class="table-wrap"><table class="fit stack"><caption>Alerts by rule</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">Level</th><th scope="col">Backtested</th><th scope="col">Active policy</th></tr></thead>
<tbody>${rows.map(
    (x) => html`<tr><td data-label="Rule"><code>${x.rule_id}</code></td><td data-label="Level">${levelBadge(x.alert_level)}</td>
<td class="num" data-label="Backtested">${candidate.get(key(x)) ?? 0}</td><td class="num" data-label="Active policy">${active.get(key(x)) ?? 0}</td></tr>`,
  )}</tbody></table></div>`;
}

function differences(r: Report): SafeHtml {
  const d = r.versus_baseline;
  const a = r.analyst_outcomes;
  return html`<dl class="facts">
<div><dt>New alerts</dt><dd>${d.new} <span class="hint">raised by the backtested rules, not by the active policy</span></dd></div>
<div><dt>Lost alerts</dt><dd>${d.lost} <span class="hint">raised by the active policy, no longer</span></dd></div>
<div><dt>Changed level</dt><dd>${d.changed_level}</dd></div>
<div><dt>Checks affected</dt><dd>${d.checks_affected}</dd></div>
<div><dt>Flagged by analysts</dt><dd>${a.flagged_still_alerted} of ${a.flagged} still alerted</dd></div>
<div><dt>Dismissed by analysts</dt><dd>${a.dismissed_no_longer_raised} of ${a.dismissed} no longer raised</dd></div>
</dl>`;
}

function examples(r: Report): SafeHtml {
  if (r.examples.length === 0) return html`<p>No check changes: the backtested rules alert exactly as the active policy does.</p>`;
  const level = (l: string | null) => (l === null ? html`<span class="hint">none</span>` : levelBadge(l));
  return html`<div class="table-wrap"><table class="fit stack"><caption>Checks whose alerts change (the first ${r.examples.length}, earliest first)</caption>
<thead><tr><th scope="col">Check</th><th scope="col">Checked</th><th scope="col">Changes</th></tr></thead>
<tbody>${r.examples.map(
    (
      e,
    ) => html`<tr><td data-label="Check"><a href="/checks/transfer/${e.check_id}">${e.check_id}</a></td><td data-label="Checked">${utc(e.checked_at)}</td>
<td class="wrap" data-label="Changes">${e.changes.map((c, i) => html`${i ? html`<br>` : ''}<code>${c.category_slug}</code> ${c.rule_type}: ${level(c.from_level)} → ${level(c.to_level)}`)}</td></tr>`,
  )}</tbody></table></div>`;
}

function progress(b: Backtest): SafeHtml {
  const { checks_read: read, checks_estimated: estimated } = b.progress;
  return html`<p role="status"><progress max="${Math.max(1, estimated)}" value="${read}"></progress> ${read} of about ${estimated} checks read; this page reloads until the report is ready.</p>`;
}

/** A backtest: its progress while it runs, then the comparison with the active policy and the affected checks. */
export function backtestPage(user: DashboardUser, b: Backtest, policyName: string): SafeHtml {
  const r = b.report;
  return layout({
    title: `Backtest of ${policyName}`,
    user,
    section: 'policies',
    ...(b.status === 'running' ? { refreshSeconds: REFRESH_SECONDS } : {}),
    body: html`<p class="no-print"><a href="${policyHref(b.policy_id, b.subgroup_id)}">← The policy</a></p>
<h1>Backtest of ${policyName} ${b.version === 'draft' ? 'draft' : `version ${b.version}`} <code class="hint">${b.policy_id}</code></h1>
<p class="lead">Against the active policy ${b.baseline.policy_id} ${b.baseline.version}, over the checks from ${utc(b.from)} to ${utc(b.to)}.
Status: <strong data-status="${b.status}">${b.status}</strong>. The same report is at <code>${b.result_url}</code>.</p>
${b.status === 'running' ? progress(b) : ''}
${b.error ? html`<p class="error-box" role="alert">${b.error}</p>` : ''}
${
  r
    ? html`<section aria-labelledby="cmp-title"><h2 id="cmp-title">Against the active policy</h2>${differences(r)}</section>
${byLevel(r)}
${byRule(r)}
<section aria-labelledby="ex-title"><h2 id="ex-title">Affected checks</h2>${examples(r)}</section>`
    : ''
}`,
  });
}
