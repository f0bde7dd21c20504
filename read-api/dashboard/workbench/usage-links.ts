import type { UsageRowDoc } from '../../../projections/usage-rows.js';
import { html, type SafeHtml } from '../html.js';

/** Where a usage row's check can be read: its verdict page (light screens, full and transfer checks, inspects). The call id is the check id. */
export function checkPageOf(row: Pick<UsageRowDoc, 'product' | 'call_id'>): string | null {
  if (row.product === 'screen') return `/checks/screen/${encodeURIComponent(row.call_id)}`;
  if (row.product === 'inspect') return `/checks/inspect/${encodeURIComponent(row.call_id)}`;
  if (row.product === 'check_address') return `/checks/address/${encodeURIComponent(row.call_id)}`;
  if (row.product === 'check_transfer') return `/checks/transfer/${encodeURIComponent(row.call_id)}`;
  return null;
}

/** The usage CSV export form (GET /account/usage.csv), for whole UTC days. */
export function usageExportForm(today: string | null): SafeHtml {
  const last = today ?? '';
  return html`<h2 id="usage-export-title">Export</h2>
<form class="inline-form" method="get" action="/account/usage.csv" aria-labelledby="usage-export-title">
<div><label for="u-since">From <span class="hint">first day, UTC</span></label><input id="u-since" name="since" type="date" required value="${last ? `${last.slice(0, 8)}01` : ''}"></div>
<div><label for="u-until">To <span class="hint">last day, UTC</span></label><input id="u-until" name="until" type="date" required value="${last}"></div>
<button type="submit" class="secondary">Download usage CSV</button>
</form>`;
}
