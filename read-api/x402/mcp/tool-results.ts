import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SettlementResponse } from '../../../domain/x402/x402-wire.js';
import type { Product } from '../../../domain/billing/products.js';
import type { RestAnswer } from './rest-door.js';
import { summaryOf } from './tool-summary.js';

/**
 * How x402 travels over MCP (the x402 MCP transport, specs/transports-v2/mcp.md of the x402 repository):
 * the payment payload in the tool call's `_meta["x402/payment"]`, the settlement receipt in the result's
 * `_meta["x402/payment-response"]`, and a 402 as a tool error whose `structuredContent` is the
 * `PaymentRequired` quote and whose `content[0].text` is `{"x402/error": {code: 402, message, data}}`.
 */
export const PAYMENT_META = 'x402/payment';
export const RECEIPT_META = 'x402/payment-response';

const text = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];
const receiptMeta = (receipt: SettlementResponse | null) => (receipt ? { _meta: { [RECEIPT_META]: receipt } } : {});

/**
 * A served call (200): first a one-line summary (tool-summary.ts: "unknown: no data" when nothing is
 * known, and the sanctions lists checked), then the body; or a check that outlived the call (202): its
 * check id and the free tool that fetches it.
 */
export function servedResult(answer: RestAnswer, product: Product, resultTool: string | undefined): CallToolResult {
  const running = answer.status === 202;
  const body = running && resultTool ? { ...answer.body, result_tool: resultTool } : answer.body;
  const first = running
    ? `Still running. Call ${resultTool ?? 'the result tool'} with {"check_id": "${String(body.check_id)}"} in a few seconds: it is free.`
    : summaryOf(product, body);
  return { structuredContent: body, content: [{ type: 'text' as const, text: first }, ...text(body)], ...receiptMeta(answer.receipt) };
}

/** A 402: the quote to pay (with the failed settlement's receipt, if any), in both places the transport names. */
export function paymentChallenge(quote: Record<string, unknown>, message: string, receipt: SettlementResponse | null): CallToolResult {
  const data = receipt ? { ...quote, [RECEIPT_META]: receipt } : quote;
  return { isError: true, structuredContent: data, content: text({ 'x402/error': { code: 402, message, data } }) };
}

/** Any other refusal: the REST error envelope `{error: {code, message}}`, plus when to retry and any receipt. */
export function errorResult(answer: RestAnswer): CallToolResult {
  const body = {
    ...answer.body,
    ...(answer.retryAfterSeconds ? { retry_after_seconds: answer.retryAfterSeconds } : {}),
    ...(answer.receipt ? { [RECEIPT_META]: answer.receipt } : {}),
  };
  return { isError: true, structuredContent: body, content: text(body), ...receiptMeta(answer.receipt) };
}
