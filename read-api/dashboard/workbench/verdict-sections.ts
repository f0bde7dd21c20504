import type { FullCheckResult } from '../../schemas/full-check-result.schema.js';
import type { VerdictBody } from '../../schemas/screen-verdict.body.js';
import { jurisdictionsText, sanctionsSentence, type SanctionsShown } from '../../presenters/coverage-sentence.js';
import { html, type SafeHtml } from '../html.js';
import { levelBadge, utc } from './format.js';
import type { HopUsd } from './hop-usd.js';
import { routeSvg } from './route-svg.js';

/** The parts of a verdict page, shared by the light screen and the full check. */

export function verdictHead(
  verdict: Pick<VerdictBody, 'risk_level' | 'risk_score' | 'confidence' | 'label' | 'source_count'>,
  decision?: string,
): SafeHtml {
  return html`<div class="stats">
<div class="stat"><div class="label">Risk level</div><div class="value">${levelBadge(verdict.risk_level)}</div></div>
<div class="stat"><div class="label">Risk score</div><div class="value">${verdict.risk_score ?? '—'}<span class="hint">of 100</span></div></div>
<div class="stat"><div class="label">Confidence</div><div class="value">${verdict.confidence === null ? '—' : `${verdict.confidence}%`}</div></div>
<div class="stat"><div class="label">Sources</div><div class="value">${verdict.source_count}</div></div>
${decision ? html`<div class="stat"><div class="label">Decision</div><div class="value">${decision}</div></div>` : ''}
</div>
${verdict.label ? html`<p>Known as <strong>${verdict.label}</strong>.</p>` : ''}
${verdict.risk_level === 'none' ? html`<p class="hint">"none" means no risk signal was found, not that the address is clean.</p>` : ''}`;
}

/** The lists checked and not checked, from the verdict's own coverage (presenters/coverage-sentence.ts). */
export function sanctionsCoverageLine(sanctions: SanctionsShown | undefined): SafeHtml {
  const missing = sanctions === undefined || sanctions.not_checked.length > 0;
  return html`<p class="${missing ? 'warn-box' : 'hint'}" data-coverage="sanctions">${sanctionsSentence(sanctions)}</p>`;
}

export function sanctionsSection(verdict: Pick<VerdictBody, 'sdn_match'>, sanctions: SanctionsShown | undefined): SafeHtml {
  const m = verdict.sdn_match;
  if (!m)
    return html`<section aria-labelledby="sdn-title"><h2 id="sdn-title">Sanctions</h2>
<p>${sanctions && sanctions.checked.length > 0 ? `No match on the ${jurisdictionsText(sanctions.checked)} sanctions lists checked.` : 'No match on a sanctions list checked.'}</p>
${sanctionsCoverageLine(sanctions)}</section>`;
  return html`<section class="card sanctions" aria-labelledby="sdn-title"><h2 id="sdn-title">Sanctions match</h2>
${sanctionsCoverageLine(sanctions)}
<dl class="facts">
<div><dt>List</dt><dd>${m.list}</dd></div>
<div><dt>Entity</dt><dd>${m.entity ?? 'not named by the list'}</dd></div>
<div><dt>Program</dt><dd>${m.program ?? 'not given'}</dd></div>
<div><dt>List date</dt><dd>${m.list_date ?? 'not given'}</dd></div>
${m.list_entry_id ? html`<div><dt>Entry</dt><dd>${m.list_entry_id}</dd></div>` : ''}
<div><dt>Source</dt><dd>${m.source}</dd></div>
</dl></section>`;
}

/** The three numbers a verdict page shows, each answering its own question: said once, above the labels. */
export function confidenceLegend(): SafeHtml {
  return html`<dl class="facts legend-confidence" aria-label="What the numbers mean">
<div><dt>Confidence of a label</dt><dd>how sure the source itself is of its entry (0–100)</dd></div>
<div><dt>Confidence of a category</dt><dd>the chance, from all its sources together, that the category applies</dd></div>
<div><dt>Trust weight</dt><dd>how far the service trusts a source (0–100), whatever it says</dd></div>
</dl>`;
}

/** A label's date, and what it rests on: only a date the source gives is called the source's. */
export function labelDate(row: Pick<VerdictBody['labels'][number], 'first_seen_at' | 'last_seen_at' | 'dated_by'>): string {
  const [first, last] = [row.first_seen_at.slice(0, 10), row.last_seen_at.slice(0, 10)];
  const days = first === last ? first : `${first} to ${last}`;
  switch (row.dated_by) {
    case 'record':
      return `${days}, the source's date`;
    case 'list':
      return `${days}, the list's date`;
    case 'retrieved':
      return `no date from the source; imported from files of ${last}`;
    case null:
      return `${days}, the source's date or the day it was imported`;
  }
}

export function labelsSection(verdict: Pick<VerdictBody, 'labels'>): SafeHtml {
  if (verdict.labels.length === 0)
    return html`<section aria-labelledby="labels-title"><h2 id="labels-title">Labels</h2><p>No source labels this address.</p></section>`;
  return html`<section aria-labelledby="labels-title"><h2 id="labels-title">Labels</h2>
${confidenceLegend()}
<div class="table-wrap"><table class="fit stack">
<caption class="sr-only">Labels by source</caption>
<thead><tr><th scope="col">Source</th><th scope="col">Label</th><th scope="col">Category</th><th scope="col" class="num">Confidence</th><th scope="col">Date</th><th scope="col">Link</th></tr></thead>
<tbody>${verdict.labels.map(
    (
      row,
    ) => html`<tr><td data-label="Source">${row.source_name}</td><td class="wrap" data-label="Label">${row.label ?? '—'}</td><td data-label="Category"><code>${row.category}</code></td><td class="num" data-label="Confidence">${row.confidence}</td>
<td class="wrap" data-label="Date">${labelDate(row)}</td>
<td data-label="Link"><a href="${row.source_url}" rel="noopener noreferrer" target="_blank">source<span class="sr-only"> of the ${row.source_name} label (opens a new tab)</span></a></td></tr>`,
  )}</tbody></table></div></section>`;
}

const trustWords = (weight: number | null) =>
  weight === null ? 'unknown trust' : weight >= 80 ? 'high trust' : weight >= 50 ? 'medium trust' : 'low trust';

export function categoriesSection(verdict: Pick<VerdictBody, 'risk_category_detail'>): SafeHtml {
  if (verdict.risk_category_detail.length === 0) return html``;
  return html`<section aria-labelledby="cat-title"><h2 id="cat-title">Categories</h2>
<p class="hint">Judge a category by how many sources back it and how trusted the best of them is, not by its confidence alone (the numbers are explained above the labels).</p>
<ul class="categories">${verdict.risk_category_detail.map(
    (c) => html`<li><strong><code>${c.slug}</code></strong> ${levelBadge(c.risk_level)}
<br>Confidence <strong>${c.confidence === null ? '—' : `${c.confidence}%`}</strong>: ${
      c.confidence === null ? 'not computed' : `the sources together say it applies with a ${Math.round(c.confidence)} % probability`
    }.
<br>Sources <strong>${c.source_count ?? 0}</strong>: ${c.source_count === 1 ? 'one source says so' : `${c.source_count ?? 0} sources say so`} (${c.sources.join(', ')}).
<br>Best trust weight <strong>${c.max_trust_weight ?? '—'}</strong>: the most trusted of them is ${trustWords(c.max_trust_weight)} (of 100).</li>`,
  )}</ul></section>`;
}

/** What the versions section reads: the screen's data versions, or the full check's (with the transfer data, older ones without). */
export interface ShownDataVersions {
  readonly taxonomy: string;
  readonly snapshot: string | null;
  readonly sources: readonly { source: string; version: string; imported_at?: string | undefined }[];
  readonly transfer_data?: FullCheckResult['coverage']['data_versions']['transfer_data'];
}

const transferDataText = (t: NonNullable<ShownDataVersions['transfer_data']>[number]): string =>
  [
    t.name,
    t.kind === 'ingested_blocks' && t.up_to_block !== null ? `blocks up to ${t.up_to_block}` : t.version,
    t.cap ? `capped: ${t.cap}` : null,
    t.as_of ? `as of ${t.as_of.slice(0, 10)}` : null,
  ]
    .filter((part): part is string => part !== null && part !== '')
    .join(', ');

export function versionsSection(coverage: { readonly data_versions: ShownDataVersions }, verdictAt: string): SafeHtml {
  const v = coverage.data_versions;
  return html`<section aria-labelledby="dv-title"><h2 id="dv-title">Verdict time and data versions</h2>
<dl class="facts">
<div><dt>Verdict time</dt><dd>${utc(verdictAt)}</dd></div>
<div><dt>Taxonomy</dt><dd>${v.taxonomy}</dd></div>
${dataFacts(v)}
</dl></section>`;
}

/** The snapshot, the sources behind the verdict with their versions, and the transfer data it read: rows of a facts list. */
export function dataFacts(v: Omit<ShownDataVersions, 'taxonomy'>): SafeHtml {
  return html`<div><dt>Snapshot</dt><dd>${v.snapshot ?? '—'}</dd></div>
<div><dt>Sources</dt><dd>${
    v.sources.length === 0
      ? 'none'
      : v.sources.map(
          (s, i) => html`${i ? html`<br>` : ''}${s.source} ${s.version}${s.imported_at ? ` (imported ${s.imported_at.slice(0, 10)})` : ''}`,
        )
  }</dd></div>
${
  v.transfer_data
    ? html`<div><dt>Transfer data</dt><dd>${v.transfer_data.length === 0 ? 'none' : v.transfer_data.map((t, i) => html`${i ? '; ' : ''}${transferDataText(t)}`)}</dd></div>`
    : ''
}`;
}

const REASONS: Record<string, string> = {
  no_transaction_history: 'no transaction history for this address on this network',
  too_few_transfers: 'too few transfers for the graph search',
  service_address: 'a known service: its pooled funds say nothing of one customer',
};

export function tiersSection(result: Pick<FullCheckResult, 'tiers'>): SafeHtml {
  return html`<section aria-labelledby="tiers-title"><h2 id="tiers-title">Tiers</h2>
<div class="table-wrap"><table class="fit"><caption class="sr-only">Which tiers ran</caption>
<thead><tr><th scope="col">Tier</th><th scope="col">What</th><th scope="col">Ran</th><th scope="col">Level</th></tr></thead>
<tbody>${result.tiers.map(
    (t) =>
      html`<tr><td>${t.tier}</td><td>${t.name}</td><td class="wrap">${t.applied ? 'yes' : html`no: ${t.reason ? (REASONS[t.reason] ?? t.reason) : 'not needed'}`}</td><td>${levelBadge(t.risk_level)}</td></tr>`,
  )}</tbody></table></div></section>`;
}

const MAX_ROUTES = 6;

/** The routes the page draws, in order: the first MAX_ROUTES paths of the evidence. */
export function drawnRoutes(result: Pick<FullCheckResult, 'evidence'>) {
  const all = result.evidence.flatMap((evidence) => evidence.paths.map((path) => ({ evidence, path })));
  return { shown: all.slice(0, MAX_ROUTES), more: Math.max(0, all.length - MAX_ROUTES) };
}

/** `hops[i]`: the USD each hop of the i-th drawn route moved (see hop-usd.ts). */
export function routesSection(result: Pick<FullCheckResult, 'evidence'>, hops: readonly (readonly HopUsd[])[]): SafeHtml {
  const { shown, more } = drawnRoutes(result);
  if (shown.length === 0)
    return html`<section aria-labelledby="routes-title"><h2 id="routes-title">Evidence routes</h2><p>No route to a labelled entity was found.</p></section>`;
  return html`<section aria-labelledby="routes-title"><h2 id="routes-title">Evidence routes</h2>
<p class="hint">Each picture is drawn on the server (SVG): addresses in the order the funds moved, the labelled entity marked in red,
and on each hop the USD it moved (priced per transfer at its time; "no price" where the service has none for the asset, ≈ where the asset is assumed).
The heading gives what of the checked address's flow reached the entity along the route.</p>
${shown.map(
  (
    { evidence, path },
    i,
  ) => html`<h3>${evidence.slug} ${levelBadge(evidence.risk_level)} <span class="hint">${evidence.direction}, ${path.hops} hop(s), ${money(path.usd)} (${path.share_pct}% of the flow) traced${path.usd_estimated ? ', USD estimated' : ''}</span></h3>
${routeSvg({ addresses: path.addresses, usd: path.usd, hops: hops[i] ?? [], label: path.label, direction: evidence.direction, title: `Route ${i + 1}: ${evidence.slug}` })}`,
)}
${more > 0 ? html`<p class="hint">${more} more route(s) in the JSON result.</p>` : ''}
</section>`;
}

const money = (usd: number) => `$${usd.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
