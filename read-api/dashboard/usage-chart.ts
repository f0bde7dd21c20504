import type { UsageDayDoc } from '../../projections/usage-days.projection.js';
import { escapeHtml, html, raw, type SafeHtml } from './html.js';

export interface DayTotals {
  readonly day: string;
  readonly calls: number;
  /** Net of refunds, in micro-USD (integers add up exactly). */
  readonly spendMicros: number;
}

const DAY_MS = 86_400_000;

/** The first UTC day (YYYY-MM-DD) of the `days` days ending today. */
export const firstChartDay = (today: Date, days: number): string =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - (days - 1) * DAY_MS).toISOString().slice(0, 10);

/** Calls and net spend per UTC day for the `days` days ending today, zero-filled. */
export function totalsPerDay(active: readonly UsageDayDoc[], today: Date, days: number): DayTotals[] {
  const byDay = new Map(active.map((d) => [d.day, d]));
  const first = Date.parse(`${firstChartDay(today, days)}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
    const found = byDay.get(day);
    return { day, calls: found?.calls ?? 0, spendMicros: found ? found.chargedMicros - found.refundedMicros : 0 };
  });
}

// A viewBox near the size it is shown at, so its text stays legible from a phone to a desktop.
const WIDTH = 480;
const HEIGHT = 200;
const LEFT = 52;
const RIGHT = 22;
const BOTTOM = 26;
const TOP = 12;

/** A bar chart as inline SVG (no script, no external asset), with a text alternative. */
export function barChart(options: {
  id: string;
  title: string;
  values: readonly { label: string; value: number }[];
  format: (value: number) => string;
  barClass: string;
}): SafeHtml {
  const { id, title, values, format, barClass } = options;
  const max = Math.max(0, ...values.map((v) => v.value));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, values.length);
  const barWidth = Math.max(2, slot * 0.7);
  const bars = values
    .map((v, i) => {
      const h = max === 0 ? 0 : (v.value / max) * plotHeight;
      const x = LEFT + i * slot + (slot - barWidth) / 2;
      const y = TOP + plotHeight - h;
      return `<rect class="${barClass}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}"><title>${escapeHtml(`${v.label}: ${format(v.value)}`)}</title></rect>`;
    })
    .join('');
  // A date label under every seventh bar, counted back from the last one so today is always labelled.
  const ticks = values
    .map((v, i) =>
      (values.length - 1 - i) % 7 === 0
        ? `<text x="${(LEFT + i * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 7}" text-anchor="middle">${escapeHtml(v.label.slice(5))}</text>`
        : '',
    )
    .join('');
  const axis = `<line class="axis" x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - RIGHT}" y2="${TOP + plotHeight}"/>
<text x="${LEFT - 6}" y="${TOP + 12}" text-anchor="end">${escapeHtml(format(max))}</text><text x="${LEFT - 6}" y="${TOP + plotHeight}" text-anchor="end">0</text>`;
  const total = values.reduce((sum, v) => sum + v.value, 0);
  return html`<figure class="chart card">
<figcaption id="${id}-title"><strong>${title}</strong> <span class="hint">last ${values.length} days, total ${format(total)}</span></figcaption>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title">${raw(axis + bars + ticks)}</svg>
</figure>`;
}
