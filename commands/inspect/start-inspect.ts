import { present } from '../../domain/shared/present.js';
import { PRODUCTS } from '../../domain/billing/products.js';
import { boundCheck, inspectKeyDecider, inspectKeyStream, type InspectKeyState } from '../../domain/inspect/inspect-key.decider.js';
import { inspectDecider, type InspectState } from '../../domain/inspect/inspect.decider.js';
import { inspectStream } from '../../domain/inspect/inspect.events.js';
import type { ProviderSelection } from '../../domain/inspect/provider-selection.js';
import { sha256Hex } from '../../domain/shared/hash.js';
import type { Network } from '../../domain/shared/network.js';
import { assertCanCharge } from '../billing.commands.js';
import type { CommandDeps } from '../command-deps.js';

export interface StartInspectInput {
  readonly userId: string;
  readonly keyId: string;
  readonly address: string;
  readonly network: Network;
  /** The `providers` field as the client sent it (part of the request's identity). */
  readonly requestedProviders: readonly string[] | undefined;
  readonly selection: ProviderSelection;
  readonly idempotencyKey: string | undefined;
}

/** The most an inspect can cost: every provider of its run list answering. */
export const inspectCost = (runs: number) => ({ units: runs * PRODUCTS.inspect.units, priceMicros: runs * PRODUCTS.inspect.priceMicros });

/**
 * Starts an inspect, or finds the one this Idempotency-Key already started (within 24 h, same request):
 * a retry after a 504, a 202 or a dropped connection reaches the pipeline already running. A new
 * inspect is refused first (402, nothing started) if the account could not pay for every provider.
 * Nothing is charged here: the charge is taken when the result is first delivered.
 */
export async function startInspect(deps: CommandDeps, input: StartInspectInput): Promise<{ checkId: string; createdAt: string }> {
  const at = deps.clock.now().toISOString();
  const requestHash = sha256Hex(
    JSON.stringify({ address: input.address, network: input.network, providers: input.requestedProviders ?? null }),
  );
  const keyStream = input.idempotencyKey === undefined ? null : inspectKeyStream(input.userId, sha256Hex(input.idempotencyKey));
  let checkId = keyStream ? boundCheck((await deps.executor.load(keyStream, inspectKeyDecider)).state, requestHash, at) : null;
  if (checkId === null) {
    await assertCanCharge(deps, { userId: input.userId, product: 'inspect', ...inspectCost(input.selection.run.length) });
    checkId = deps.ids.newId();
    if (keyStream) {
      // A concurrent twin may have bound the key meanwhile: then its check is ours.
      const bound = await deps.executor.execute(
        keyStream,
        inspectKeyDecider,
        { type: 'BindInspectKey', checkId, requestHash, at },
        { commandId: `bind-inspect-key:${checkId}` },
        (state: InspectKeyState) => present(state.binding, 'BindInspectKey always leaves a binding').checkId,
      );
      checkId = bound.view;
    }
  }
  const requested = await deps.executor.execute(
    inspectStream(checkId),
    inspectDecider,
    {
      type: 'RequestInspect',
      checkId,
      userId: input.userId,
      keyId: input.keyId,
      address: input.address,
      network: input.network,
      requestHash,
      providers: [...input.selection.run],
      waived: [...input.selection.waived],
      skipped: [...input.selection.skipped],
      at,
    },
    { commandId: `request-inspect:${checkId}` },
    (state: InspectState) => present(state.request, 'past its Requested event a job has its request').at,
  );
  return { checkId, createdAt: requested.view };
}
