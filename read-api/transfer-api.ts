import type { TransferCheckDeps } from '../commands/kyt/transfer-check-deps.js';

/** What the transfer-check routes need beyond the command deps, chosen by infra/topology and assembled by infra/wiring. */
export interface TransferApi {
  readonly deps: TransferCheckDeps;
  /** How long POST /v2/check-transfer waits for the result before answering 202 (spec: about 25 s). */
  readonly syncWaitMs: number;
}
