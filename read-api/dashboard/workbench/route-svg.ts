import { escapeHtml, raw, type SafeHtml } from '../html.js';
import type { HopUsd } from './hop-usd.js';

/**
 * One evidence route as a small server-rendered SVG (no script, no external asset, fits the CSP): the
 * addresses in the order funds moved (the labelled entity first for incoming funds, last for outgoing),
 * an arrow per hop carrying the USD that hop moved (hop-usd.ts; "no price" or "amount unknown" when the
 * service has none, never a guess), and the entity's label under its node. The route's own figure, what of
 * the checked address's flow reached the entity, is in the description.
 */
export interface RouteInput {
  readonly addresses: readonly string[];
  /** USD of the checked address's flow traced to the entity along this route. */
  readonly usd: number;
  /** One per hop (addresses.length - 1), in the order funds moved. */
  readonly hops: readonly HopUsd[];
  readonly label: string | null;
  /** `incoming`: funds flowed from the entity (first address) to the checked address (last). */
  readonly direction: 'incoming' | 'outgoing' | 'self';
  readonly title: string;
  /** What the caption under the checked end says: `checked address` (a full check), `sender` (a transfer check). */
  readonly anchorCaption?: string;
}

const STEP = 190;
/** Room left and right of the outer nodes for their captions. */
const MARGIN = 110;
const RADIUS = 16;
const HEIGHT = 120;
/** The tall drawing (phones): one row per address, the hop's USD beside its arrow. */
const ROW = 96;
const TALL_WIDTH = 340;
const short = (address: string) => (address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address);
const money = (usd: number) => `$${usd.toLocaleString('en-US', { maximumFractionDigits: usd < 100 ? 2 : 0 })}`;

/** The hop's figure on its arrow: `≈` marks a value resting on an assumed asset. */
function hopText(hop: HopUsd | undefined): string {
  switch (hop?.kind) {
    case 'priced':
      return `${hop.estimated ? '≈' : ''}${money(hop.usd)}`;
    case 'unpriced':
      return 'no price';
    case 'unknown':
    case undefined:
      return 'amount unknown';
  }
}

/** The same in words, for the description. */
function hopWords(hop: HopUsd | undefined): string {
  switch (hop?.kind) {
    case 'priced':
      return hop.estimated ? `about ${money(hop.usd)} (the asset is assumed)` : money(hop.usd);
    case 'unpriced':
      return `${hop.transfers} transfer(s) of an asset the service has no price for`;
    case 'unknown':
    case undefined:
      return 'amount not known to the transfer index';
  }
}

/** The caption under a node stays within its margin; the full label is in the description. */
const caption = (label: string) => (label.length > 26 ? `${label.slice(0, 25)}…` : label);

let counter = 0;

interface Drawing {
  readonly route: RouteInput;
  readonly id: string;
  readonly entityAt: number;
  readonly anchorAt: number;
  readonly anchorCaption: string;
}

const usdClass = (hop: HopUsd | undefined) => `usd${hop?.kind === 'priced' ? '' : ' unpriced'}`;

/** A node: its circle, its short address, and under it what it is (the checked address, or the entity's label). */
function node(d: Drawing, i: number, cx: number, cy: number, tx: number, ty: number, anchor: 'middle' | 'start'): string {
  const address = d.route.addresses[i] ?? '';
  const end = i === d.entityAt;
  const role = i === d.anchorAt ? d.anchorCaption : end && d.route.label ? caption(d.route.label) : null;
  return (
    `<g><title>${escapeHtml(address)}</title><circle class="node${end ? ' end' : ''}" cx="${cx}" cy="${cy}" r="${RADIUS}"/>` +
    `<text x="${tx}" y="${ty}" text-anchor="${anchor}">${escapeHtml(short(address))}</text>` +
    (role ? `<text x="${tx}" y="${ty + 18}" text-anchor="${anchor}"${end ? ' font-weight="600"' : ''}>${escapeHtml(role)}</text>` : '') +
    '</g>'
  );
}

function svgOpen(d: Drawing, variant: 'wide' | 'tall', width: number, height: number): string {
  const id = `${d.id}-${variant}`;
  return (
    `<svg class="${variant}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${id}-t ${d.id}-d" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${id}-t">${escapeHtml(d.route.title)}</title>` +
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#57606a"/></marker></defs>`
  );
}

/** Addresses left to right, each hop's USD above its arrow: desktops and print. */
function wide(d: Drawing): string {
  const nodes = d.route.addresses;
  const x = (i: number) => MARGIN + i * STEP;
  const y = 46;
  const arrows = nodes.slice(1).map((_, i) => {
    const [from, to] = [x(i) + RADIUS + 4, x(i + 1) - RADIUS - 8];
    return (
      `<line class="edge" x1="${from}" y1="${y}" x2="${to}" y2="${y}" marker-end="url(#${d.id}-wide-arrow)"/>` +
      `<text class="${usdClass(d.route.hops[i])}" x="${(x(i) + x(i + 1)) / 2}" y="${y - 12}" text-anchor="middle">${escapeHtml(hopText(d.route.hops[i]))}</text>`
    );
  });
  const circles = nodes.map((_, i) => node(d, i, x(i), y, x(i), y + RADIUS + 18, 'middle'));
  return svgOpen(d, 'wide', Math.max(1, nodes.length - 1) * STEP + 2 * MARGIN, HEIGHT) + arrows.join('') + circles.join('') + '</svg>';
}

/** Addresses top to bottom, captions and USD to the right: fits a phone without scrolling sideways. */
function tall(d: Drawing): string {
  const nodes = d.route.addresses;
  const x = 30;
  const y = (i: number) => 28 + i * ROW;
  const arrows = nodes.slice(1).map((_, i) => {
    const [from, to] = [y(i) + RADIUS + 4, y(i + 1) - RADIUS - 8];
    return (
      `<line class="edge" x1="${x}" y1="${from}" x2="${x}" y2="${to}" marker-end="url(#${d.id}-tall-arrow)"/>` +
      `<text class="${usdClass(d.route.hops[i])}" x="${x + 22}" y="${(y(i) + y(i + 1)) / 2 + 18}">${escapeHtml(hopText(d.route.hops[i]))}</text>`
    );
  });
  const circles = nodes.map((_, i) => node(d, i, x, y(i), x + 28, y(i) + 5, 'start'));
  return svgOpen(d, 'tall', TALL_WIDTH, y(nodes.length - 1) + 44) + arrows.join('') + circles.join('') + '</svg>';
}

/**
 * Both drawings share one description; the stylesheet shows the wide one on wide screens and the tall
 * one on narrow screens, so a route fits any width (the hidden one is out of the accessibility tree).
 */
export function routeSvg(route: RouteInput): SafeHtml {
  const nodes = route.addresses;
  const entityAt = route.direction === 'incoming' ? 0 : nodes.length - 1;
  const d: Drawing = {
    route,
    id: `route-${++counter}`,
    entityAt,
    anchorAt: nodes.length - 1 - entityAt,
    anchorCaption: route.anchorCaption ?? 'checked address',
  };
  const perHop = nodes.slice(1).map((to, i) => `${short(nodes[i] ?? '')} → ${short(to)}: ${hopWords(route.hops[i])}`);
  const description =
    `${route.direction === 'incoming' ? 'Funds from' : 'Funds to'} ${route.label ?? 'an unnamed entity'}: ${nodes.join(' → ')}; ${money(route.usd)} traced along ${nodes.length - 1} hop(s). ` +
    `Moved per hop: ${perHop.join('; ')}.`;
  return raw(
    `<figure class="route">${wide(d)}${tall(d)}` +
      `<figcaption class="hint" id="${d.id}-d">${escapeHtml(description)}</figcaption></figure>`,
  );
}
