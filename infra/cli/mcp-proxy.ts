import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { LocalAccount } from 'viem';
import { microsToUsd } from '../../domain/shared/money.js';
import { paymentRequirementsSchema, type PaymentPayload } from '../../domain/x402/x402-wire.js';
import { knownUsdcOf, signPaymentFor } from './x402-wallet.js';

const PAYMENT_META = 'x402/payment';
const RECEIPT_META = 'x402/payment-response';

export interface PayingProxyOptions {
  /** A connected MCP client of the service's `/mcp`. */
  readonly upstream: Client;
  readonly wallet: LocalAccount;
  /** The most this proxy pays in its lifetime, in micro-USD (USDC base units). */
  readonly spendCapMicros: number;
  /** Where payment lines go (stderr for the CLI: stdout is the MCP channel). Never given the key. */
  readonly log?: (line: string) => void;
}

/**
 * A stdio-side MCP server for standard MCP clients (Claude Code, Cursor, the Inspector) that knows
 * nothing of x402: it lists the service's tools as they are, forwards each call, and answers an x402
 * challenge by signing the quote from the local wallet and calling again with the proof in
 * `_meta["x402/payment"]`. A call whose price would push the running total over the cap is refused
 * before anything is signed.
 */
export function createPayingProxy(options: PayingProxyOptions): { server: Server; spentMicros(): number } {
  const log = options.log ?? (() => undefined);
  let spent = 0;
  const server = new Server({ name: 'risk-screening-x402-proxy', version: '1.0.0' }, { capabilities: { tools: {} } });
  const forward = (params: CallToolRequest['params']) =>
    options.upstream.request({ method: 'tools/call', params }, CallToolResultSchema) as Promise<CallToolResult>;

  server.setRequestHandler(ListToolsRequestSchema, (request) => options.upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const params = request.params;
    const first = await forward(params);
    const quote = params._meta?.[PAYMENT_META] ? null : challengeOf(first);
    if (!quote) return first;

    const offered = quote.accepts
      .map((entry) => paymentRequirementsSchema.safeParse(entry))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
    const payable = offered
      .map((requirement) => ({ requirement, network: knownUsdcOf(requirement) }))
      .find((entry) => entry.network !== null);
    if (!payable?.network)
      return refusal(
        'payment_unsupported',
        'the quote asks for a payment this proxy cannot make (it pays USDC on Base or Base Sepolia, scheme exact)',
      );
    const price = Number(payable.requirement.amount);
    if (!Number.isSafeInteger(price) || spent + price > options.spendCapMicros) {
      log(
        `refused ${params.name}: ${microsToUsd(price)} USD would exceed the spend cap (${microsToUsd(spent)} of ${microsToUsd(options.spendCapMicros)} USD spent)`,
      );
      return refusal(
        'spend_cap_exceeded',
        `${params.name} costs ${microsToUsd(price)} USD; this proxy has spent ${microsToUsd(spent)} of its ${microsToUsd(options.spendCapMicros)} USD cap, so it did not pay. Restart it with a higher --spend-cap-usd to go on.`,
      );
    }
    spent += price; // reserved before signing, so concurrent calls cannot overshoot the cap together
    const payment: PaymentPayload = await signPaymentFor(
      options.wallet,
      payable.network,
      payable.requirement,
      quote.resource as PaymentPayload['resource'],
    );
    const paid = await forward({ ...params, _meta: { ...params._meta, [PAYMENT_META]: payment } });
    if (!movedMoney(paid)) spent -= price;
    const receipt = receiptOf(paid);
    log(
      `${params.name}: ${receipt?.success ? `paid ${microsToUsd(price)} USD (transaction ${receipt.transaction})` : paid.isError ? 'refused' : 'served without a charge'}; ${microsToUsd(spent)} of ${microsToUsd(options.spendCapMicros)} USD spent`,
    );
    return paid;
  });
  return { server, spentMicros: () => spent };
}

interface Challenge {
  readonly accepts: readonly unknown[];
  readonly resource?: unknown;
}

/** The x402 quote of a tool error: `structuredContent`, or the `x402/error` wrapper in `content[0].text` (the transport's order). */
export function challengeOf(result: CallToolResult): Challenge | null {
  if (!result.isError) return null;
  const isQuote = (value: unknown): value is Challenge =>
    typeof value === 'object' &&
    value !== null &&
    (value as { x402Version?: unknown }).x402Version === 2 &&
    Array.isArray((value as { accepts?: unknown }).accepts);
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (isQuote(structured)) return structured;
  const wrapped = (structured?.['x402/error'] as { data?: unknown } | undefined)?.data;
  if (isQuote(wrapped)) return wrapped;
  const first = result.content[0];
  if (first?.type !== 'text') return null;
  try {
    const parsed = JSON.parse(first.text) as Record<string, unknown>;
    const data = (parsed['x402/error'] as { data?: unknown } | undefined)?.data ?? parsed;
    return isQuote(data) ? data : null;
  } catch {
    return null;
  }
}

const receiptOf = (result: CallToolResult) => result._meta?.[RECEIPT_META] as { success?: boolean; transaction?: string } | undefined;

/**
 * Whether a paid call may have moved money. A settled call carries a receipt. Without one: a fresh
 * challenge (the proof was refused), a call served without a charge (an earlier payment covered it) and
 * a refusal with any other code (e.g. a transfer not found, checked before settling) moved nothing; a
 * `backend_unavailable` or `service_internal_error` without a receipt may follow a settlement whose
 * outcome is unknown, so it stays counted.
 */
function movedMoney(result: CallToolResult): boolean {
  if (receiptOf(result)?.success === true) return true;
  if (!result.isError || challengeOf(result)) return false;
  const code = (result.structuredContent as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code !== 'string' || code === 'backend_unavailable' || code === 'service_internal_error';
}

function refusal(code: string, message: string): CallToolResult {
  const body = { error: { code, message } };
  return { isError: true, structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
}
