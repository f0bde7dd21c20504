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
}

const STEP = 190;
/** Room left and right of the outer nodes for their captions. */
const MARGIN = 110;
const RADIUS = 16;
const HEIGHT = 120;
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

export function routeSvg(route: RouteInput): SafeHtml {
  const nodes = route.addresses;
  const width = Math.max(1, nodes.length - 1) * STEP + 2 * MARGIN;
  const x = (i: number) => MARGIN + i * STEP;
  const y = 46;
  const id = `route-${++counter}`;
  const entityAt = route.direction === 'incoming' ? 0 : nodes.length - 1;
  const anchorAt = nodes.length - 1 - entityAt;
  const arrows = nodes.slice(1).map((_, i) => {
    const [from, to] = [x(i) + RADIUS + 4, x(i + 1) - RADIUS - 8];
    return (
      `<line class="edge" x1="${from}" y1="${y}" x2="${to}" y2="${y}" marker-end="url(#${id}-arrow)"/>` +
      `<text class="usd${route.hops[i]?.kind === 'priced' ? '' : ' unpriced'}" x="${(x(i) + x(i + 1)) / 2}" y="${y - 12}" text-anchor="middle">${escapeHtml(hopText(route.hops[i]))}</text>`
    );
  });
  const circles = nodes.map((address, i) => {
    const end = i === entityAt;
    return (
      `<g><title>${escapeHtml(address)}</title><circle class="node${end ? ' end' : ''}" cx="${x(i)}" cy="${y}" r="${RADIUS}"/>` +
      `<text x="${x(i)}" y="${y + RADIUS + 18}" text-anchor="middle">${escapeHtml(short(address))}</text>` +
      (i === anchorAt ? `<text x="${x(i)}" y="${y + RADIUS + 36}" text-anchor="middle">checked address</text>` : '') +
      (end && route.label
        ? `<text x="${x(i)}" y="${y + RADIUS + 36}" text-anchor="middle" font-weight="600">${escapeHtml(caption(route.label))}</text>`
        : '') +
      '</g>'
    );
  });
  const perHop = nodes.slice(1).map((to, i) => `${short(nodes[i] ?? '')} → ${short(to)}: ${hopWords(route.hops[i])}`);
  const description =
    `${route.direction === 'incoming' ? 'Funds from' : 'Funds to'} ${route.label ?? 'an unnamed entity'}: ${nodes.join(' → ')}; ${money(route.usd)} traced along ${nodes.length - 1} hop(s). ` +
    `Moved per hop: ${perHop.join('; ')}.`;
  return raw(
    `<figure class="route"><svg viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-labelledby="${id}-t ${id}-d" xmlns="http://www.w3.org/2000/svg">` +
      `<title id="${id}-t">${escapeHtml(route.title)}</title><desc id="${id}-d">${escapeHtml(description)}</desc>` +
      `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#57606a"/></marker></defs>` +
      arrows.join('') +
      circles.join('') +
      `</svg><figcaption class="hint">${escapeHtml(description)}</figcaption></figure>`,
  );
}
