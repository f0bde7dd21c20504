import { formatUnits } from 'viem';
import { z } from 'zod';
import { html, type SafeHtml } from '../html.js';
import { levelBadge, shortHash, utc } from './format.js';
import type { HopUsd } from './hop-usd.js';
import { routeSvg } from './route-svg.js';
import { dataFacts, sanctionsCoverageLine } from './verdict-sections.js';
import { tracedDataVersionsSchema } from '../../schemas/data-versions.schema.js';
import { sanctionsCoverageSchema } from '../../../domain/webhooks/sanctions-coverage.words.js';

/**
 * What a transfer check found, as the workbench shows it on the check's page, on each alert's case page
 * and in the printable report: the transaction and its legs, each sender with its own verdict and
 * exposure, and the routes its funds took. Read from the stored result (domain/kyt/transfer-result.ts);
 * fields added since a check was recorded are optional here, and their absence is said, not guessed.
 */

const pathView = z.object({
  hops: z.number(),
  addresses: z.array(z.string()),
  usd: z.number(),
  share_pct: z.number(),
  label: z.string().nullable(),
  source: z.string(),
  usd_estimated: z.boolean(),
});
export type EvidencePathView = z.infer<typeof pathView>;

const senderView = z.object({
  address: z.string(),
  label: z.string().nullable(),
  usd_value: z.number(),
  share: z.number(),
  legs: z.number(),
  data_available: z.boolean(),
  risk_score: z.number().optional(),
  risk_level: z.string().optional(),
  direct_categories: z.array(z.object({ slug: z.string(), level: z.string(), confidence: z.number(), sources: z.array(z.string()) })),
  indirect_categories: z.array(
    z.object({
      slug: z.string(),
      share: z.number(),
      hops: z.number().nullable(),
      usd_value: z.number().optional(),
      paths: z.array(pathView).optional(),
    }),
  ),
  graph: z.string(),
});
export type SenderView = z.infer<typeof senderView>;

const legView = z.object({
  kind: z.string(),
  token: z.string().nullable(),
  symbol: z.string().nullable(),
  decimals: z.number().nullable(),
  from: z.string(),
  to: z.string(),
  amount: z.string(),
  usd_value: z.number().nullable(),
});
export type LegView = z.infer<typeof legView>;

const alertView = z.object({
  category: z.string(),
  riskLevel: z.string(),
  ruleType: z.string(),
  actualShare: z.number(),
  thresholdShare: z.number(),
  thresholdValue: z.number(),
  entityName: z.string().nullable(),
  entityAddress: z.string().nullable(),
});

const explanationView = z.object({
  rule_id: z.string(),
  category_slug: z.string(),
  exposure_usd: z.number(),
  note: z.string(),
  senders: z.array(z.string()).optional(),
  senders_total: z.number().optional(),
});
export type ExplanationView = z.infer<typeof explanationView>;

/**
 * The fields of a completed transfer check's result the workbench reads: a loose reading (fields added
 * later are optional, unknown ones ignored) of what domain/kyt/transfer-result.ts writes.
 */
export const transferResultView = z.object({
  check_id: z.string(),
  chain: z.string(),
  tx_hash: z.string(),
  checked_at: z.string(),
  transaction: z.object({
    block_number: z.number(),
    block_time: z.string(),
    success: z.boolean(),
    signer: z.string(),
    to: z.string().nullable(),
  }),
  composite_result: z.object({
    total_usd: z.number(),
    pricing: z.string(),
    risk_score: z.number(),
    risk_level: z.string(),
    unknown_share: z.number(),
    prices: z.array(z.object({ source: z.string(), as_of: z.string() })),
    legs_total: z.number(),
    legs: z.array(legView),
    senders: z.array(senderView),
    senders_total: z.number(),
    categories: z.array(z.object({ slug: z.string(), display_name: z.string() })),
  }),
  policy_result: z.object({
    /** Absent in checks made before policies were per subgroup (the standard one). */
    policy_id: z.string().optional(),
    policy: z.string(),
    version: z.string(),
    taxonomy_version: z.string(),
    worst_level: z.string().nullable(),
    recommended_action: z.string(),
    alerts: z.array(alertView),
    explanations: z.array(explanationView),
  }),
  coverage: z
    .object({
      sanctions: sanctionsCoverageSchema,
      data_versions: z.object({
        snapshot: z.string().nullable(),
        sources: z.array(z.object({ source: z.string(), version: z.string(), imported_at: z.string() })),
        transfer_data: tracedDataVersionsSchema.shape.transfer_data,
      }),
    })
    .optional(),
});
export type TransferResultView = z.infer<typeof transferResultView>;

/** A stored result as the workbench reads it; null when it lacks what the pages show (a result no check of this service wrote). */
export const readTransferResult = (result: unknown): TransferResultView | null => transferResultView.safeParse(result).data ?? null;

export const money = (usd: number) => `$${usd.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/** A category's name as the taxonomy gives it (the result lists every category it found), else its slug. */
export function categoryName(r: TransferResultView, slug: string): string {
  return r.composite_result.categories.find((c) => c.slug === slug)?.display_name ?? slug;
}

/** A leg's amount in whole units of its asset (`1.5 ETH`), or in base units when its decimals are not known. */
export function legAmount(leg: LegView): string {
  const asset = leg.symbol ?? (leg.kind === 'native' ? 'native coin' : 'unknown token');
  if (leg.decimals === null) return `${leg.amount} base units of ${asset}`;
  return `${formatUnits(BigInt(leg.amount), leg.decimals)} ${asset}`; // exact: amounts exceed 2^53
}

const GRAPH_WORDS: Record<string, string> = {
  analysed: 'its incoming funds were traced',
  budget_exhausted: 'its incoming funds were traced until the search budget ran out: more may lie further',
  no_history: 'the transfer data holds no incoming transfer of it: its funds could not be traced',
  not_available: 'not traced (no transfer data for this chain, or it is a known service whose pooled funds say nothing of one customer)',
  skipped: 'not traced: only the largest senders of a transaction are traced',
};

/** Whether its funds were traced, and if not why: an attributed sender is what it is, its inflow is not searched. */
function tracedWords(s: SenderView): string {
  if (s.direct_categories.length > 0 && s.graph === 'not_available') return 'not needed: the sender itself is attributed, which decides';
  return GRAPH_WORDS[s.graph] ?? s.graph;
}

/** The sender's own verdict in one line; never "clean" for what is not known. */
export function senderVerdict(s: SenderView): SafeHtml {
  const exposed = s.direct_categories.length > 0 || s.indirect_categories.length > 0;
  if (!exposed && !s.data_available)
    return html`<span class="badge off">unknown</span> <span class="hint">no data: unknown, not clean</span>`;
  if (!exposed) return html`${levelBadge('none')} <span class="hint">known, no risk category</span>`;
  return s.risk_level === undefined ? html`<span class="badge bad">exposed</span>` : levelBadge(s.risk_level);
}

/** The transaction: where, when, who signed it, and who received. */
export function transactionFacts(r: TransferResultView): SafeHtml {
  const t = r.transaction;
  const recipients = [...new Set(r.composite_result.legs.map((leg) => leg.to))];
  return html`<dl class="facts">
<div><dt>Transaction</dt><dd>${r.chain} <code class="break">${r.tx_hash}</code></dd></div>
<div><dt>Block</dt><dd>${t.block_number}, mined ${utc(t.block_time)}</dd></div>
<div><dt>Signed by</dt><dd><code class="break">${t.signer}</code></dd></div>
<div><dt>Called</dt><dd>${t.to ? html`<code class="break">${t.to}</code>` : 'a contract creation'}${t.success ? '' : html` <strong>(reverted: moved nothing)</strong>`}</dd></div>
<div><dt>${recipients.length === 1 ? 'Recipient' : 'Recipients'}</dt><dd>${
    recipients.length === 0
      ? 'none (no value moved)'
      : recipients.map((to, i) => html`${i ? html`<br>` : ''}<code class="break">${to}</code>`)
  }</dd></div>
<div><dt>Value</dt><dd>${money(r.composite_result.total_usd)}${r.composite_result.pricing === 'full' ? '' : html` <span class="hint">pricing ${r.composite_result.pricing}: some legs have no USD price</span>`}</dd></div>
</dl>`;
}

/** Every leg: asset, amount, USD, from and to, and the block time (all legs of a transaction share its block). */
export function legsTable(r: TransferResultView): SafeHtml {
  const legs = r.composite_result.legs;
  if (legs.length === 0) return html`<p>The transaction moved no value.</p>`;
  return html`<div class="table-wrap"><table class="fit stack"><caption class="sr-only">Legs of the transaction: each movement of value</caption>
<thead><tr><th scope="col">Asset</th><th scope="col" class="num">Amount</th><th scope="col" class="num">USD</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Block time</th></tr></thead>
<tbody>${legs.map(
    (
      leg,
    ) => html`<tr><td data-label="Asset">${leg.symbol ?? (leg.token ? shortHash(leg.token) : 'native')}</td><td class="num" data-label="Amount">${legAmount(leg)}</td>
<td class="num" data-label="USD">${leg.usd_value === null ? html`<span class="hint">no price</span>` : money(leg.usd_value)}</td>
<td data-label="From">${shortHash(leg.from)}</td><td data-label="To">${shortHash(leg.to)}</td><td data-label="Block time">${utc(r.transaction.block_time)}</td></tr>`,
  )}</tbody></table></div>
${r.composite_result.legs_total > legs.length ? html`<p class="hint">${r.composite_result.legs_total - legs.length} more leg(s) in the JSON result.</p>` : ''}`;
}

/** One route of a sender's funds, with the USD each hop moved (hop-usd.ts). */
export interface DrawnRoute {
  readonly sender: string;
  readonly slug: string;
  readonly path: EvidencePathView;
}

const MAX_ROUTES = 6;

/** The routes a page draws, in the order of the senders and their categories; at most MAX_ROUTES. */
export function transferRoutes(senders: readonly SenderView[]): { shown: DrawnRoute[]; more: number } {
  const all = senders.flatMap((s) =>
    s.indirect_categories.flatMap((c) => (c.paths ?? []).map((path) => ({ sender: s.address, slug: c.slug, path }))),
  );
  return { shown: all.slice(0, MAX_ROUTES), more: Math.max(0, all.length - MAX_ROUTES) };
}

/** `hops` is index-aligned with `routes.shown`. */
export interface RoutesWithHops {
  readonly routes: { shown: readonly DrawnRoute[]; more: number };
  readonly hops: readonly (readonly HopUsd[])[];
}

const senderAnchor = (address: string) => `sender-${address.toLowerCase()}`;

function exposureRows(r: TransferResultView, s: SenderView): SafeHtml {
  const direct = s.direct_categories.map(
    (
      c,
    ) => html`<tr><td data-label="Category">${categoryName(r, c.slug)} <code>${c.slug}</code></td><td data-label="Through">the sender itself</td><td class="num" data-label="Share">100%</td><td class="num" data-label="USD">${money(s.usd_value)}</td><td class="num" data-label="Hops">0</td>
<td class="wrap" data-label="Evidence">${c.confidence}% confidence; ${c.sources.join(', ')}</td></tr>`,
  );
  const indirect = s.indirect_categories.map(
    (
      c,
    ) => html`<tr><td data-label="Category">${categoryName(r, c.slug)} <code>${c.slug}</code></td><td data-label="Through">its incoming funds</td><td class="num" data-label="Share">${c.share}%</td>
<td class="num" data-label="USD">${c.usd_value === undefined ? '—' : money(c.usd_value)}</td><td class="num" data-label="Hops">${c.hops ?? '—'}</td>
<td class="wrap" data-label="Evidence">${(c.paths ?? []).length === 0 ? 'no route recorded' : [...new Set((c.paths ?? []).map((p) => p.source))].join(', ')}</td></tr>`,
  );
  return html`${direct}${indirect}`;
}

/** One sender: its verdict, where its exposure comes from, and the routes its funds took. */
function senderCard(r: TransferResultView, s: SenderView, drawn: RoutesWithHops): SafeHtml {
  const exposed = s.direct_categories.length > 0 || s.indirect_categories.length > 0;
  const routes = drawn.routes.shown.map((route, i) => ({ route, hops: drawn.hops[i] ?? [] })).filter((x) => x.route.sender === s.address);
  return html`<article class="card sender" id="${senderAnchor(s.address)}" aria-labelledby="${senderAnchor(s.address)}-h">
<h3 id="${senderAnchor(s.address)}-h"><code class="break">${s.address}</code></h3>
<dl class="facts">
<div><dt>Verdict</dt><dd>${senderVerdict(s)}${s.risk_score === undefined ? '' : html` <span class="hint">score ${s.risk_score} of 10</span>`}</dd></div>
<div><dt>Known as</dt><dd>${s.label ?? (s.data_available ? 'no name given by the sources' : 'no source knows this address')}</dd></div>
<div><dt>Sent</dt><dd>${money(s.usd_value)} in ${s.legs} leg(s), ${s.share}% of the transfer</dd></div>
<div><dt>Funds traced</dt><dd>${tracedWords(s)}</dd></div>
</dl>
${
  exposed
    ? html`<div class="table-wrap"><table class="fit stack"><caption class="sr-only">Exposure of ${s.address}</caption>
<thead><tr><th scope="col">Category</th><th scope="col">Through</th><th scope="col" class="num">Share</th><th scope="col" class="num">USD</th><th scope="col" class="num">Hops</th><th scope="col">Evidence</th></tr></thead>
<tbody>${exposureRows(r, s)}</tbody></table></div>`
    : ''
}
${routes.map(
  ({
    route,
    hops,
  }) => html`<h4>${categoryName(r, route.slug)} <span class="hint">${route.path.hops} hop(s), ${money(route.path.usd)} (${route.path.share_pct}% of its incoming funds) traced${route.path.usd_estimated ? ', USD estimated' : ''}</span></h4>
${routeSvg({ addresses: route.path.addresses, usd: route.path.usd, hops, label: route.path.label, direction: 'incoming', title: `Funds of ${s.address} from ${route.path.label ?? route.slug}`, anchorCaption: 'sender' })}`,
)}
</article>`;
}

/**
 * The senders: a summary table (verdict, exposure, USD, share), then a card per sender with its
 * exposure and routes. The verdicts come from the very exposure the alerts were raised on.
 */
export function sendersSection(r: TransferResultView, drawn: RoutesWithHops, only?: readonly string[]): SafeHtml {
  const c = r.composite_result;
  const senders = only ? c.senders.filter((s) => only.includes(s.address)) : c.senders;
  const exposureWords = (s: SenderView) =>
    [
      ...s.direct_categories.map((d) => `${categoryName(r, d.slug)} (itself)`),
      ...s.indirect_categories.map((i) => `${categoryName(r, i.slug)}: ${i.share}%${i.hops === null ? '' : ` within ${i.hops} hop(s)`}`),
    ].join('; ');
  return html`<div class="table-wrap"><table class="fit stack"><caption class="sr-only">Senders by USD value</caption>
<thead><tr><th scope="col">Sender</th><th scope="col">Verdict</th><th scope="col">Exposure</th><th scope="col" class="num">USD</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${senders.map(
    (
      s,
    ) => html`<tr><td data-label="Sender"><a href="#${senderAnchor(s.address)}">${shortHash(s.address)}</a></td><td data-label="Verdict">${senderVerdict(s)}</td>
<td class="wrap" data-label="Exposure">${exposureWords(s) || (s.label ? html`known as ${s.label}` : '—')}</td><td class="num" data-label="USD">${money(s.usd_value)}</td><td class="num" data-label="Share">${s.share}%</td></tr>`,
  )}</tbody></table></div>
${!only && c.senders_total > c.senders.length ? html`<p class="hint">${c.senders_total - c.senders.length} more sender(s) in the JSON result.</p>` : ''}
${senders.map((s) => senderCard(r, s, drawn))}
${drawn.routes.more > 0 ? html`<p class="hint">${drawn.routes.more} more route(s) in the JSON result.</p>` : ''}`;
}

/**
 * The time of the verdict, the sanctions lists the senders were checked against, the policy, taxonomy and
 * price versions, and the sources and transfer data behind the exposure (a check recorded before results
 * named them says so).
 */
export function transferVersions(r: TransferResultView): SafeHtml {
  const p = r.policy_result;
  const prices = r.composite_result.prices;
  return html`${sanctionsCoverageLine(r.coverage?.sanctions)}
<dl class="facts">
<div><dt>Verdict time</dt><dd>${utc(r.checked_at)}</dd></div>
<div><dt>Policy</dt><dd><a href="/policies/${p.policy_id ?? 'standard'}?version=${p.version}">${p.policy} ${p.version}</a></dd></div>
<div><dt>Taxonomy version</dt><dd>${p.taxonomy_version}</dd></div>
<div><dt>Prices</dt><dd>${prices.length === 0 ? 'none needed' : prices.map((x, i) => html`${i ? ', ' : ''}${x.source} (as of ${x.as_of})`)}</dd></div>
${r.coverage ? dataFacts(r.coverage.data_versions) : html`<div><dt>Sources</dt><dd>not recorded with this check (made before checks named them)</dd></div>`}
<div><dt>Check</dt><dd><a href="/checks/transfer/${r.check_id}"><code class="break">${r.check_id}</code></a></dd></div>
</dl>`;
}
