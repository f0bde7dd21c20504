import { inspectResultUrl, providerEntries, type InspectDelivery } from '../../commands/inspect/deliver-inspect.js';
import { OWN_ENGINE } from '../../domain/inspect/provider-selection.js';
import type { ScreenVerdict } from '../../domain/intel/screen-verdict.schema.js';
import { screenVerdictOfRecorded, type ScreenVerdictV1 } from '../../domain/intel/screen-verdict.v1.js';
import type { InspectResultBody } from '../schemas/inspect.js';
import { presentBilling } from './billing.presenter.js';
import type { Presented } from './presented.js';
import { screenVerdictParts } from './screen-verdict.body.js';

/** Bumped when a field of the inspect result body changes meaning. */
export const INSPECT_RESULT_SCHEMA_VERSION = 1;

type ProviderEntries = ReturnType<typeof providerEntries>;

/**
 * Each provider's run as the body carries it: an outside provider's raw verdict as it answered, the own
 * engine's domain verdict as the light screen's `coverage` and `verdict` (inspects recorded before it was a
 * domain fact kept those: read back, served the same). Also the 502's details (../errors.ts).
 */
export function presentProviderEntries(entries: ProviderEntries): ProviderEntries {
  return Object.fromEntries(
    Object.entries(entries).map(([provider, entry]) =>
      provider === OWN_ENGINE && entry.ok
        ? [provider, { ...entry, verdict: screenVerdictParts(screenVerdictOfRecorded(entry.verdict as ScreenVerdict | ScreenVerdictV1)) }]
        : [provider, entry],
    ),
  );
}

/** 202: still running; poll `retry_url` with backoff (2 s, doubling, capped at 10 s). 200: the result, charged on its first delivery. */
export function presentInspectDelivery(outcome: InspectDelivery): Presented<Readonly<Record<string, unknown>>> {
  switch (outcome.kind) {
    case 'running':
      return {
        status: 202,
        body: { check_id: outcome.checkId, status: 'running', retry_url: inspectResultUrl(outcome.checkId), created_at: outcome.createdAt },
      };
    case 'completed':
      return { status: 200, body: inspectResultBody(outcome) };
  }
}

/** The completed inspect's V2 body: the API's 200 and the workbench's verdict page read the same shape. */
export function inspectResultBody(outcome: Extract<InspectDelivery, { kind: 'completed' }>): InspectResultBody {
  const { checkId, request, state, receipt, billing } = outcome;
  return {
    schema_version: INSPECT_RESULT_SCHEMA_VERSION,
    check_id: checkId,
    status: 'completed',
    address: request.address,
    network: request.network,
    created_at: request.at,
    completed_at: state.finishedAt,
    audit: state.audit,
    providers: presentProviderEntries(providerEntries(state)),
    waived_providers: request.waived,
    skipped_providers: request.skipped,
    receipt,
    billing: presentBilling(billing),
  };
}
