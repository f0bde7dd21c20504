import { ServiceError } from '../../domain/shared/errors.js';
import { errorBody } from '../errors.js';
import { monitorFromState } from '../routes/monitor-views.js';
import { validationBody } from '../validation.js';
import { presentBilling } from './billing.presenter.js';
import type { Presented } from './presented.js';
import type { BulkEntryOutcome, BulkWatched, MonitorWatched } from './monitor-outcome.schema.js';

/** The outcomes (watched, a bulk entry, a bulk request), typed by the schemas their replays parse. */
export type { BulkEntryOutcome, BulkWatched, MonitorWatched };

/** POST /v2/monitors: 201 created (charged), 200 already watched. */
export const presentMonitorWatched = (outcome: MonitorWatched): Presented<Readonly<Record<string, unknown>>> => ({
  status: outcome.created ? 201 : 200,
  body: { ...monitorFromState(outcome.state), billing: presentBilling(outcome.billing) },
});

/** One bulk entry as the single POST would answer it. */
function presentEntry(entry: BulkEntryOutcome, index: number): Presented<unknown> {
  switch (entry.kind) {
    case 'watched':
      return presentMonitorWatched(entry);
    case 'refused':
      return errorBody(new ServiceError(entry.failure));
    case 'invalid':
      // Locations name the entry: ["body", "monitors", 3, "address"].
      return validationBody(entry.detail.map((d) => ({ ...d, loc: ['body', 'monitors', index, ...d.loc.slice(1)] })));
  }
}

/** POST /v2/monitors/bulk: 200 with one result per entry (its status and body) and a summary. */
export function presentBulkWatched(outcome: BulkWatched): Presented<Readonly<Record<string, unknown>>> {
  const results = outcome.entries.map((entry, index) => ({ index, ...presentEntry(entry, index) }));
  const count = (status: number) => results.filter((r) => r.status === status).length;
  return {
    status: 200,
    body: { results, summary: { created: count(201), existing: count(200), failed: results.length - count(201) - count(200) } },
  };
}
