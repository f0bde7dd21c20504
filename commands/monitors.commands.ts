import type { VerdictSigner } from '../domain/ports/verdict-signer.port.js';
import { verdictChanged } from '../domain/monitors/monitor-verdict.js';
import { monitorChangeReceipt } from './receipts/verdict-receipts.js';
import { present } from '../domain/shared/present.js';
import { periodStartOf } from '../domain/billing/period.js';
import { buildScreenVerdict } from '../domain/intel/screen-verdict.js';
import { checkedIntel } from '../domain/intel/address-verdict.js';
import { monitorDecider, owesPeriod, type MonitorState } from '../domain/monitors/monitor.decider.js';
import { monitorStream } from '../domain/monitors/monitor.events.js';
import type { ChangeReason } from '../domain/intel/change-reason.js';
import { monitorVerdictOf } from '../domain/monitors/monitor-verdict.js';
import type { Position } from '../domain/ports/event-store.port.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import { fail, isServiceError } from '../domain/shared/errors.js';
import type { Network } from '../domain/shared/network.js';
import type { ChargedBilling } from '../domain/ledger/charged-billing.js';
import { chargeCall, readBalance, refundCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';

/**
 * Monitors: a customer's standing watch on an address. Price model (docs/api.md, "Monitors"): product
 * `monitor`, per monitored address per calendar month, charged at creation (for the month it starts in)
 * and at each period start; a period that cannot be paid pauses the monitor, it is never dropped.
 */
export type MonitorDeps = CommandDeps & { readonly intel: IntelIndex; readonly receipts: VerdictSigner };

/** What a monitor looks like to its owner, from the stream's own state (strongly consistent). */
export interface MonitorView {
  readonly monitorId: string;
  readonly state: MonitorState;
}

/** One monitor per (user, network, address): the id is derived, so watching again finds the same one. */
export const monitorIdOf = (deps: Pick<CommandDeps, 'ids'>, userId: string, network: Network, address: string): string =>
  deps.ids.eventId(`monitor:${userId}:${network}:${address}`, 0);

export const loadMonitor = async (deps: CommandDeps, monitorId: string): Promise<MonitorState> =>
  (await deps.executor.load(monitorStream(monitorId), monitorDecider)).state;

/** The monitor of this user, or not_found (another user's monitor is not found either). */
export async function ownMonitor(deps: CommandDeps, userId: string, monitorId: string): Promise<MonitorState> {
  const state = await loadMonitor(deps, monitorId);
  if (state.userId !== userId || state.status === 'none' || state.status === 'deleted') throw fail('not_found', 'no such monitor');
  return state;
}

function currentVerdict(deps: MonitorDeps, address: string, network: Network) {
  const intel = checkedIntel(deps, { address, network });
  return { ...monitorVerdictOf(buildScreenVerdict(intel)), sanctions: intel.sanctions };
}

/**
 * Creates the monitor and charges its first month, or answers the existing one uncharged (`created:
 * false`). Charged first so that a caller who cannot pay gets 402 and nothing is created; a creation that
 * then fails, or loses a race to a twin, is refunded.
 */
export async function createMonitor(
  deps: MonitorDeps,
  input: { userId: string; keyId: string | null; callId: string; address: string; network: Network; reference: string | null },
): Promise<{ created: boolean; state: MonitorState; billing: ChargedBilling; position: Position | null }> {
  const monitorId = monitorIdOf(deps, input.userId, input.network, input.address);
  const existing = await loadMonitor(deps, monitorId);
  if (existing.status === 'active' || existing.status === 'paused')
    return { created: false, state: existing, billing: (await readBalance(deps, input.userId)).billing, position: null };
  const at = deps.clock.now().toISOString();
  const chargeId = `monitor-create:${input.callId}`;
  const { billing } = await chargeCall(deps, {
    userId: input.userId,
    chargeId,
    product: 'monitor',
    details: { endpoint: 'POST /v2/monitors', keyId: input.keyId, network: input.network, subject: input.address },
  });
  try {
    const { verdict, dataVersions, sanctions } = currentVerdict(deps, input.address, input.network);
    const outcome = await deps.executor.execute(
      monitorStream(monitorId),
      monitorDecider,
      {
        type: 'Create',
        monitorId,
        userId: input.userId,
        keyId: input.keyId,
        address: input.address,
        network: input.network,
        reference: input.reference,
        verdict,
        dataVersions,
        sanctions,
        period: periodStartOf(at),
        at,
      },
      { commandId: `monitor-create:${input.callId}` },
      (state: MonitorState) => state,
    );
    if (outcome.events.length === 0) {
      const refunded = await refundCall(deps, { userId: input.userId, chargeId, reason: 'already_monitored' });
      return { created: false, state: outcome.view, billing: refunded, position: null };
    }
    return { created: true, state: outcome.view, billing, position: outcome.position };
  } catch (error) {
    await refundCall(deps, { userId: input.userId, chargeId, reason: 'backend_unavailable' });
    throw isServiceError(error) && error.code === 'backend_unavailable'
      ? error
      : fail('backend_unavailable', 'the monitor could not be created; the charge was refunded');
  }
}

export async function deleteMonitor(deps: CommandDeps, input: { userId: string; monitorId: string }): Promise<Position | null> {
  await ownMonitor(deps, input.userId, input.monitorId);
  const outcome = await deps.executor.execute(
    monitorStream(input.monitorId),
    monitorDecider,
    { type: 'Delete', at: deps.clock.now().toISOString() },
    { commandId: `monitor-delete:${input.monitorId}:${deps.ids.newId()}` },
  );
  return outcome.position;
}

/**
 * Re-screens one monitor against the intelligence as it is now, on behalf of one change. Appends a change
 * (and its webhook) only when the verdict differs; the command id is the (monitor, change) pair, so a
 * retry after a crash re-appends the very same event ids.
 */
export async function reevaluateMonitor(
  deps: MonitorDeps,
  input: { monitorId: string; changeKey: string; reasons: readonly ChangeReason[] },
): Promise<{ changed: boolean; position: Position | null }> {
  const state = await loadMonitor(deps, input.monitorId);
  if (state.status !== 'active') return { changed: false, position: null };
  const { verdict, dataVersions, sanctions } = currentVerdict(
    deps,
    present(state.address, 'a created monitor has its address'),
    present(state.network, 'a created monitor has its network'),
  );
  const at = deps.clock.now().toISOString();
  // Signed only when the verdict differs (most re-evaluations change nothing): the change's receipt.
  const receipt = verdictChanged(present(state.verdict, 'a created monitor has a verdict'), verdict)
    ? await monitorChangeReceipt(
        deps,
        { monitorId: input.monitorId, changeKey: input.changeKey, state, at },
        { current: verdict, dataVersions },
      )
    : null;
  const outcome = await deps.executor.execute(
    monitorStream(input.monitorId),
    monitorDecider,
    {
      type: 'Reevaluate',
      receipt,
      changeKey: input.changeKey,
      verdict,
      dataVersions,
      sanctions,
      reasons: input.reasons,
      at,
    },
    { commandId: `monitor-reevaluate:${input.monitorId}:${input.changeKey}` },
  );
  return { changed: outcome.events.length > 0, position: outcome.position };
}

const REFUSALS = new Set(['insufficient_funds', 'quota_exceeded', 'monthly_cap_exceeded']);

/**
 * Charges `period` for one monitor that still owes it. Paid: renewed (or resumed, then re-evaluated at
 * once, since changes while paused were not watched). Refused by the ledger: paused, with the reason.
 */
export async function renewMonitor(
  deps: MonitorDeps,
  input: { monitorId: string; period: string },
): Promise<'renewed' | 'resumed' | 'paused' | 'unchanged'> {
  const state = await loadMonitor(deps, input.monitorId);
  if (state.status === 'none' || state.status === 'deleted') return 'unchanged';
  if (state.status === 'active' && !owesPeriod(state, input.period)) return 'unchanged';
  const at = deps.clock.now().toISOString();
  let refusal: string | null = null;
  try {
    await chargeCall(deps, {
      userId: present(state.userId, 'a created monitor has its owner'),
      chargeId: `monitor-renew:${input.monitorId}:${input.period}`,
      product: 'monitor',
      details: { endpoint: 'monitor renewal', keyId: null, network: state.network, subject: state.address },
    });
  } catch (error) {
    if (!isServiceError(error) || !REFUSALS.has(error.code)) throw error;
    refusal = error.code;
  }
  const command =
    refusal === null
      ? ({ type: 'Renew', period: input.period, paid: true, at } as const)
      : ({ type: 'Renew', period: input.period, paid: false, reason: refusal, at } as const);
  const outcome = await deps.executor.execute(monitorStream(input.monitorId), monitorDecider, command, {
    commandId: `monitor-renew:${input.monitorId}:${input.period}:${refusal ?? 'paid'}`,
  });
  const kind = outcome.events[0]?.type;
  if (kind === 'MonitorResumed') {
    await reevaluateMonitor(deps, {
      monitorId: input.monitorId,
      changeKey: `resume:${input.period}`,
      reasons: [{ source: 'monitor', change: 'monitor_resumed', version: null, changedAt: at }],
    });
    return 'resumed';
  }
  return kind === 'MonitorPaused' ? 'paused' : kind === 'MonitorRenewed' ? 'renewed' : 'unchanged';
}
