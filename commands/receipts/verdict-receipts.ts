import type { CheckOwner } from '../../domain/address-check/address-check.events.js';
import type { FullCheckVerdict } from '../../domain/address-check/full-check-verdict.js';
import type { FinalAudit } from '../../domain/inspect/final-audit.js';
import type { MonitorState } from '../../domain/monitors/monitor.decider.js';
import type { MonitorDataVersions, MonitorVerdict } from '../../domain/monitors/monitor-verdict.js';
import { present } from '../../domain/shared/present.js';
import type { Requester } from '../../domain/kyt/transfer-check.events.js';
import type { TransferVerdict } from '../../domain/kyt/transfer-verdict.js';
import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import {
  fullCheckStatement,
  inspectStatement,
  monitorChangeStatement,
  transferCheckStatement,
  type VerdictContext,
} from '../../domain/receipts/verdict-statements.js';

/**
 * The receipts of the asynchronous verdicts, signed when delivered from the facts their completion
 * recorded (docs/ARCHITECTURE.md#verdict-receipts): the statement depends only on the stored verdict, and
 * Ed25519 is deterministic, so every delivery under the same key is the same receipt.
 */
type Signing = { readonly receipts: VerdictSigner };

const checkCaller = (owner: CheckOwner): VerdictContext['caller'] =>
  owner.channel === 'v2' ? { kind: 'api_key', id: owner.keyId ?? owner.ownerId } : { kind: 'x402_payment', id: owner.ownerId };

export function fullCheckReceipt(
  deps: Signing,
  request: { checkId: string; owner: CheckOwner; address: string; network: string },
  verdict: FullCheckVerdict,
): Promise<string> {
  const context: VerdictContext = {
    verdictId: request.checkId,
    caller: checkCaller(request.owner),
    input: { address: request.address, network: request.network },
    issuedAt: verdict.completedAt,
  };
  return deps.receipts.sign(fullCheckStatement(context, verdict));
}

/** The x402 channel's transfer check is paid once per transfer and names no payer: the paying call is the caller. */
const callerOf = (checkId: string, requester: Requester): VerdictContext['caller'] =>
  requester.channel === 'v2'
    ? { kind: 'api_key', id: requester.keyId }
    : requester.payer
      ? { kind: 'x402_payer', id: requester.payer }
      : { kind: 'x402_payment', id: checkId };

export function transferCheckReceipt(
  deps: Signing,
  request: { checkId: string; chain: string; txHash: string; requester: Requester },
  verdict: TransferVerdict,
): Promise<string> {
  const { requester } = request;
  const context: VerdictContext = {
    verdictId: request.checkId,
    caller: callerOf(request.checkId, requester),
    input: { chain: request.chain, tx_hash: request.txHash },
    issuedAt: verdict.checkedAt,
  };
  return deps.receipts.sign(transferCheckStatement(context, verdict));
}

export function inspectReceipt(
  deps: Signing,
  request: { checkId: string; keyId: string; address: string; network: string },
  completed: { audit: FinalAudit; finishedAt: string },
): Promise<string> {
  const context: VerdictContext = {
    verdictId: request.checkId,
    caller: { kind: 'api_key', id: request.keyId },
    input: { address: request.address, network: request.network },
    issuedAt: completed.finishedAt,
  };
  return deps.receipts.sign(inspectStatement(context, request, completed.audit));
}

/** A monitor's verdict change: its id is the (monitor, change) pair, its caller the monitor's owner. */
export function monitorChangeReceipt(
  deps: Signing,
  change: { monitorId: string; changeKey: string; state: MonitorState; at: string },
  verdict: { current: MonitorVerdict; dataVersions: MonitorDataVersions },
): Promise<string> {
  const subject = {
    address: present(change.state.address, 'the monitor’s address'),
    network: present(change.state.network, 'its network'),
  };
  const context: VerdictContext = {
    verdictId: `${change.monitorId}:${change.changeKey}`,
    caller: { kind: 'monitor_owner', id: present(change.state.userId, 'the monitor’s owner') },
    input: subject,
    issuedAt: change.at,
  };
  return deps.receipts.sign(monitorChangeStatement(context, subject, verdict));
}
