import { z } from 'zod';
import type { Product } from '../../domain/billing/products.js';
import { SCREEN_NETWORKS, TRANSFER_CHAINS } from '../../domain/shared/network.js';
import { exploreBody } from '../routes/explore.routes.js';
import { X402_PAID_BODIES } from '../schemas/x402.js';

/**
 * What an agent needs to know about each paid x402 resource, in one place for both doors: the REST route
 * (its Bazaar discovery metadata) and the MCP tool (its input and output schemas). The input schemas only
 * describe the REST rules: the REST parser enforces them, so both doors answer a bad input with the same
 * code (`chain_unsupported`, `address_invalid`, `body_invalid`).
 */

const billing = z.looseObject({
  model: z.literal('x402'),
  currency: z.literal('USD'),
  charged_usd: z.number().describe('0 when an earlier payment for the same transfer covered this call'),
  network: z.string().describe('CAIP-2 id of the payment network'),
  asset: z.string(),
  payer: z.string().nullable(),
  transaction: z.string().nullable().describe('the settlement transaction'),
  replay: z.boolean(),
});

// The REST rules, advertised as JSON Schema keywords (`.meta`, not checks): the REST parser enforces them,
// so an argument that breaks one gets the REST code, not the MCP SDK's generic validation error.
const addressInput = {
  chain: z
    .string()
    .describe(`Network of the address: one of ${SCREEN_NETWORKS.join(', ')} (any case)`)
    .meta({ minLength: 1, maxLength: 20, examples: [...SCREEN_NETWORKS] }),
  address: z
    .string()
    .describe('The address: 0x followed by 40 hex digits (EVM), or a TRON base58check address starting with T')
    .meta({
      minLength: 1,
      maxLength: 120,
      pattern: '^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$',
      examples: ['0x098B716B8Aaf21512996dC57EB0615e2383E2f96'],
    }),
};
const transferInput = {
  chain: z
    .string()
    .describe(
      `Chain of the transaction: one of ${TRANSFER_CHAINS.join(', ')} that this deployment reads (any case; list_networks says which)`,
    )
    .meta({ minLength: 1, maxLength: 20, examples: [...TRANSFER_CHAINS] }),
  tx_hash: z
    .string()
    .describe('Transaction hash: 0x followed by 64 hex digits (EVM); 64 hex digits, 0x optional (TRON)')
    .meta({ minLength: 1, maxLength: 80, pattern: '^(0x)?[0-9a-fA-F]{64}$' }),
};

const screenBody = z.looseObject({
  schema_version: z.number().int(),
  address: z.string(),
  network: z.enum(SCREEN_NETWORKS),
  provider: z.string(),
  coverage: z.looseObject({}),
  verdict: z.looseObject({}),
  billing,
  elapsed_ms: z.number(),
});
const addressCheckBody = z.looseObject({ decision: z.string(), verdict: z.looseObject({}), billing, elapsed_ms: z.number() });
const transferCheckBody = z.looseObject({
  composite_result: z.looseObject({}),
  policy_result: z.looseObject({}),
  billing,
  elapsed_ms: z.number(),
});

/** What every address tool's description says of `none`, so that no agent reads unknown as clean. */
export const NONE_MEANS =
  'risk_level "none" means no risk signal was found, NOT that the address is clean: read coverage.data_available (false: nothing is known, unknown, not clean) and coverage.sanctions (the lists checked, and not_checked: the lists NOT checked). The first text line of the result says both.';

/** The 202 of a check still running when the call returns: fetch it later with the free result tool / path. */
export const runningCheck = {
  check_id: z.string().describe('The only credential of the free result endpoint and of the free result tool'),
  status: z.string().describe('"running" while the check runs'),
  result_url: z.string().optional().describe('REST: the free result path'),
  retry_url: z.string().optional().describe('REST: the free result path'),
  result_tool: z.string().optional().describe('MCP: the free tool that fetches the result with this check_id'),
};

const exampleBilling = {
  model: 'x402',
  currency: 'USD',
  charged_usd: 0.1,
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
  transaction: '0x8f2c6a2b5e1f0d4c3b2a19080706050403020100ffeeddccbbaa998877665544',
  replay: false,
} as const;

export interface PaidOffer {
  readonly product: Product;
  /** The MCP tool's name. */
  readonly tool: string;
  readonly title: string;
  /** What the agent is told; the REST quote keeps its route's own description. */
  readonly description: string;
  /** The REST route, in Fastify's `:param` form (also the Bazaar `routeTemplate`). */
  readonly routeTemplate: string;
  readonly input: z.ZodRawShape;
  /** A summary of the REST 200 body for Bazaar discovery (its example is held against it). */
  readonly output: z.ZodObject;
  /** The REST 200 body's own schema: the MCP tool's output schema is built from it (mcp-context.ts). */
  readonly body: z.ZodObject;
  readonly outputExample: Record<string, unknown>;
  /** The free MCP tool that fetches a check that outlived the call. */
  readonly resultTool?: string;
}

export const PAID_OFFERS = {
  screen: {
    product: 'screen',
    tool: 'screen_address',
    title: 'Screen an address (0.10 USD)',
    description: `Light screen of an address: sanctions lists and consensus labels, no graph. Answers at once. ${NONE_MEANS}`,
    routeTemplate: '/screen/:chain/:address',
    input: addressInput,
    output: screenBody,
    body: X402_PAID_BODIES.screen,
    outputExample: {
      schema_version: 1,
      address: '0x098b716b8aaf21512996dc57eb0615e2383e2f96',
      network: 'ETH',
      provider: 'service',
      coverage: {
        data_available: true,
        sdn_checked: true,
        graph_analysed: false,
        sanctions: { checked: ['US'], not_checked: ['UK', 'EU'] },
      },
      verdict: { ok: true, risk_level: 'sanctioned', risk_score: 100, label: 'Lazarus Group' },
      billing: exampleBilling,
      elapsed_ms: 180,
    },
  },
  check_address: {
    product: 'check_address',
    tool: 'check_address',
    title: 'Full check of an address (1.00 USD)',
    description: `Full four-tier check of an address: sanctions, consensus, one hop and graph exposure. Waits up to 30 s; a check that takes longer returns its check_id: fetch it with get_address_check_result (free, no second charge). decision "unable" means nothing is known (unknown, not clean). ${NONE_MEANS}`,
    routeTemplate: '/check-address/:chain/:address',
    input: addressInput,
    output: addressCheckBody,
    body: X402_PAID_BODIES.check_address,
    outputExample: {
      decision: 'review',
      verdict: { risk_level: 'high', tier3_applied: true, tier4_applied: true },
      billing: { ...exampleBilling, charged_usd: 1 },
      elapsed_ms: 4200,
    },
    resultTool: 'get_address_check_result',
  },
  check_transfer: {
    product: 'check_transfer',
    tool: 'check_transfer',
    title: 'Check a transfer (KYT, 0.50 USD)',
    description:
      'Transfer check (KYT): exposure of every sender of a transaction, the standard policy and its alerts. Paid once per (chain, tx_hash): a later call for the same transfer is served without a second charge. Waits up to 30 s; a check that takes longer returns its check_id: fetch it with get_transfer_check_result (free). No alert is not "clean": a sender with data_available false is unknown (the first text line says how many senders are known).',
    routeTemplate: '/check-transfer/:chain/:tx_hash',
    input: transferInput,
    output: transferCheckBody,
    body: X402_PAID_BODIES.check_transfer,
    outputExample: {
      composite_result: { risk_level: 'low' },
      policy_result: { worst_level: null, recommended_action: 'accept', alerts: [] },
      billing: { ...exampleBilling, charged_usd: 0.5 },
      elapsed_ms: 2100,
    },
    resultTool: 'get_transfer_check_result',
  },
} as const satisfies Partial<Record<Product, PaidOffer>>;

export const paidOfferOf = (product: Product): PaidOffer | undefined => (PAID_OFFERS as Partial<Record<Product, PaidOffer>>)[product];

/** A paid REST resource that takes a JSON body (not an MCP tool): its Bazaar metadata only. */
export interface PaidBodyResource {
  readonly product: Product;
  readonly routeTemplate: string;
  readonly body: z.ZodType;
  readonly bodyExample: Record<string, unknown>;
  readonly output: z.ZodObject;
  readonly outputExample: Record<string, unknown>;
}

export const PAID_BODY_RESOURCES = {
  explore: {
    product: 'explore',
    routeTemplate: '/explore',
    body: exploreBody,
    bodyExample: { address: '0x098B716B8Aaf21512996dC57EB0615e2383E2f96', network: 'ETH', direction: 'in', max_hops: 3 },
    output: z.looseObject({ job_id: z.string(), status: z.string(), result_url: z.string(), billing }),
    outputExample: {
      job_id: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      status: 'running',
      result_url: '/explore/0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/result',
      billing: { ...exampleBilling, charged_usd: 1 },
    },
  },
} as const satisfies Partial<Record<Product, PaidBodyResource>>;

export const paidBodyResourceOf = (product: Product): PaidBodyResource | undefined =>
  (PAID_BODY_RESOURCES as Partial<Record<Product, PaidBodyResource>>)[product];

/** JSON Schema of a zod schema, self-contained (no `$schema`, no `$ref`), as Bazaar and MCP carry it. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Record<string, unknown>;
  return rest;
}
