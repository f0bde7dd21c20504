import fc from 'fast-check';
import { fullCheckVerdictSchema, type FullCheckVerdict } from '../../domain/address-check/full-check-verdict.js';
import { sanctionsCoverageFactSchema } from '../../domain/coverage/sanctions-coverage.js';
import type { z } from 'zod';
import { finalAuditSchema, type FinalAudit } from '../../domain/inspect/final-audit.js';
import { inspectEventSchemas, type InspectRequest } from '../../domain/inspect/inspect.events.js';
import { screenVerdictSchema, type ScreenVerdict } from '../../domain/intel/screen-verdict.schema.js';
import { monitorEventSchemas } from '../../domain/monitors/monitor.events.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { SCREEN_NETWORKS } from '../../domain/shared/network.js';
import { arbitraryOf, fraction, isoDay, isoTime, text } from './zod-arbitrary.js';

/**
 * Arbitraries of the domain verdicts, valid by their zod schemas (each generated value is parsed by the
 * schema, so an arbitrary that drifts from it fails loudly), for the property tests beside the presenters.
 * Fields whose meaning the schemas leave to the code are given by name: shares are fractions, times parse
 * as dates (sanctions lists' ages are counted from them).
 */

const fieldsByName = {
  share: fraction,
  weightedShare: fraction,
  unattributedShare: fraction,
  at: isoTime,
  importedAt: isoTime,
  requestedAt: isoTime,
  completedAt: isoTime,
  firstAt: isoTime,
  lastAt: isoTime,
  listDate: fc.option(isoDay, { nil: null }),
  // a label claim's, which the bodies state as a URL and times
  sourceUrl: fc.webUrl(),
  firstSeenAt: isoTime,
  lastSeenAt: isoTime,
};

export const fullCheckVerdictArbitrary: fc.Arbitrary<FullCheckVerdict> = arbitraryOf(fullCheckVerdictSchema, fieldsByName).map((verdict) =>
  fullCheckVerdictSchema.parse(verdict),
);

/** Who asked: any caller kind the statement knows, with any id. */
export const callerArbitrary: fc.Arbitrary<VerdictStatement['caller']> = fc.record({
  kind: fc.constantFrom('api_key', 'account', 'x402_payer', 'x402_payment', 'monitor_owner'),
  id: text,
});

/** An address the wire schemas accept (EVM hex or TRON base58), on a network the screen serves. */
export const subjectArbitrary = fc.record({
  network: fc.constantFrom(...SCREEN_NETWORKS),
  address: fc.oneof(fc.stringMatching(/^0x[0-9a-fA-F]{40}$/), fc.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)),
});

/**
 * A screen verdict as the screen makes it today: its sanctions coverage and every source's import time
 * stated (only verdicts recorded before lack them, and the bodies served then lacked them too).
 */
export const screenVerdictArbitrary: fc.Arbitrary<ScreenVerdict> = fc
  .tuple(arbitraryOf(screenVerdictSchema, fieldsByName), arbitraryOf(sanctionsCoverageFactSchema, fieldsByName), isoTime)
  .map(([verdict, sanctions, importedAt]) =>
    screenVerdictSchema.parse({
      ...verdict,
      coverage: {
        ...verdict.coverage,
        sanctions: verdict.coverage.sanctions ?? sanctions,
        dataVersions: {
          ...verdict.coverage.dataVersions,
          sources: verdict.coverage.dataVersions.sources.map((s) => ({ ...s, importedAt: s.importedAt ?? importedAt })),
        },
      },
    }),
  );

export const finalAuditArbitrary: fc.Arbitrary<FinalAudit> = arbitraryOf(finalAuditSchema).map((audit) => finalAuditSchema.parse(audit));

const inspectRequestSchema = inspectEventSchemas.InspectRequested;
export const inspectRequestArbitrary: fc.Arbitrary<InspectRequest> = fc
  .tuple(arbitraryOf(inspectRequestSchema, { at: isoTime }), subjectArbitrary)
  .map(([request, subject]) => inspectRequestSchema.parse({ ...request, ...subject }));

const monitorChangeSchema = monitorEventSchemas.MonitorVerdictChanged;
/** A receipt's shape (three base64url parts): what the stored change carries is not this test's subject. */
const compactJws = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}\.[A-Za-z0-9_-]{1,8}\.[A-Za-z0-9_-]{1,8}$/);
export const monitorChangeArbitrary: fc.Arbitrary<z.infer<typeof monitorChangeSchema>> = arbitraryOf(monitorChangeSchema, {
  ...fieldsByName,
  receipt: compactJws,
}).map((change) => monitorChangeSchema.parse(change));
