import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../domain/shared/errors.js';
import { SCREEN_NETWORKS, TRANSFER_CHAINS } from '../../domain/shared/network.js';
import { paymentRequiredSchema } from '../../read-api/schemas/x402.js';
import { contractViolation } from '../../read-api/schemas/response-contract.js';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** Walks the served documents: what a generated client or a fuzzer needs is there for every operation. */

interface Schema {
  type?: string;
  pattern?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
}
interface Operation {
  security?: unknown[];
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  openapi: string;
  security?: unknown[];
  components?: { schemas?: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));

/** Every error body's `error.code` enum, across anyOf branches. */
function errorCodesOf(schema: Schema): unknown[] {
  if (schema.anyOf) return schema.anyOf.flatMap(errorCodesOf);
  return schema.properties?.error?.properties?.code?.enum ?? [];
}

/** Address-like fields must carry their shapes: addresses and hashes a pattern, networks and chains an enum. */
function shapeProblems(name: string, field: string, schema: Schema): string[] {
  if (/^(address|tx_hash)$/.test(field) && !schema.pattern) return [`${name}: ${field} has no pattern`];
  if (/^(network|chain)$/.test(field) && !schema.enum) return [`${name}: ${field} has no enum`];
  return [];
}

function describesEveryStatus(doc: Document): string[] {
  const problems: string[] = [];
  for (const { name, op } of operations(doc)) {
    const statuses = Object.keys(op.responses);
    if (!statuses.some((s) => s.startsWith('2'))) problems.push(`${name}: no 2xx`);
    if (!statuses.some((s) => s.startsWith('4'))) problems.push(`${name}: no 4xx`);
    if (!statuses.includes('500')) problems.push(`${name}: no 500`);
    for (const [status, response] of Object.entries(op.responses)) {
      if (!response.description) problems.push(`${name} ${status}: no description`);
      if (status === '204') continue;
      const schema = response.content?.['application/json']?.schema;
      if (!schema) {
        problems.push(`${name} ${status}: no content schema`);
        continue;
      }
      if (Number(status) >= 400 && status !== '402' && status !== '503') {
        const codes = errorCodesOf(schema);
        if (codes.length === 0) problems.push(`${name} ${status}: no error code enum`);
        for (const code of codes) if (!(ERROR_CODES as readonly unknown[]).includes(code)) problems.push(`${name} ${status}: unknown code ${String(code)}`);
      }
    }
    for (const parameter of op.parameters ?? []) problems.push(...shapeProblems(name, parameter.name, parameter.schema));
    const body = op.requestBody?.content['application/json']?.schema;
    for (const [field, schema] of Object.entries(body?.properties ?? {})) problems.push(...shapeProblems(name, field, schema));
  }
  return problems;
}

let svc: TestService;
let v2: Document;
let x402: FastifyInstance;
let x402Doc: Document;

beforeAll(async () => {
  // a 402 touches no chain: the RPC is never called (nothing listens on port 9)
  svc = await startTestService({
    X402_PAY_TO: madeUpEvmAddress('openapi-pay-to'),
    X402_NETWORK: 'base-sepolia',
    X402_RPC_URL: 'http://127.0.0.1:9',
    X402_GAS_WALLET_KEY: `0x${'11'.repeat(32)}`,
  });
  v2 = (await svc.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
  const x402Services = svc.services.x402.app;
  if (!x402Services) throw new Error('the x402 app is not configured');
  x402 = await buildX402App(x402Services);
  x402Doc = (await x402.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => {
  await x402?.close();
  await svc?.close();
});

describe('GET /v2/openapi.json', () => {
  it('describes every status of every operation with a content schema, and the codes of every error', () => {
    expect(operations(v2).length).toBeGreaterThanOrEqual(23);
    expect(describesEveryStatus(v2)).toEqual([]);
  });

  it('states the real statuses: 202 for submits, 201 for creations, 204 for deletions', () => {
    expect(Object.keys(v2.paths['/v2/check-address']!.post!.responses)).toContain('202');
    expect(Object.keys(v2.paths['/v2/check-address/{check_id}/result']!.get!.responses)).toEqual(expect.arrayContaining(['200', '202', '404', '502']));
    expect(Object.keys(v2.paths['/v1/webhooks']!.post!.responses)).toContain('201');
    expect(v2.paths['/v1/webhooks/{id}']!.delete!.responses['204']!.content).toBeUndefined();
    expect(v2.paths['/v2/monitors/{id}']!.delete!.responses['204']).toBeDefined();
  });

  it('gives the error envelope per status with its codes (402 on a charged call: the refusals)', () => {
    const screen = v2.paths['/v2/screen']!.post!.responses;
    expect(errorCodesOf(screen['401']!.content!['application/json']!.schema).sort()).toEqual(['invalid_api_key', 'missing_api_key']);
    expect(errorCodesOf(screen['402']!.content!['application/json']!.schema).sort()).toEqual(['insufficient_funds', 'monthly_cap_exceeded', 'quota_exceeded']);
    expect(errorCodesOf(screen['400']!.content!['application/json']!.schema).sort()).toEqual(['bad_request', 'unsupported_network']);
    expect(screen['422']!.content!['application/json']!.schema.properties).toHaveProperty('detail');
  });

  it('takes networks and chains from the code’s own lists, and patterns for addresses and hashes', () => {
    const screenBody = v2.paths['/v2/screen']!.post!.requestBody!.content['application/json']!.schema;
    expect(screenBody.properties!.network!.enum).toEqual([...SCREEN_NETWORKS]);
    expect(new RegExp(screenBody.properties!.address!.pattern!).test('0x' + 'ab'.repeat(20))).toBe(true);
    expect(new RegExp(screenBody.properties!.address!.pattern!).test('T' + 'x'.repeat(33))).toBe(true);
    expect(new RegExp(screenBody.properties!.address!.pattern!).test('0x1234')).toBe(false);
    const transferBody = v2.paths['/v2/check-transfer']!.post!.requestBody!.content['application/json']!.schema;
    expect(transferBody.properties!.chain!.enum).toEqual([...TRANSFER_CHAINS]);
    expect(new RegExp(transferBody.properties!.tx_hash!.pattern!).test('0x' + 'cd'.repeat(32))).toBe(true);
    expect(new RegExp(transferBody.properties!.tx_hash!.pattern!).test('0x' + 'cd'.repeat(20))).toBe(false);
  });

  it('declares security: [] on the public routes only; the rest inherit the bearer requirement', async () => {
    expect(v2.security).toEqual([{ bearer: [] }]);
    const open = operations(v2).filter(({ op }) => op.security !== undefined).map(({ name }) => name);
    expect(open.sort()).toEqual(['GET /v2/health', 'GET /v2/networks']);
    for (const name of open) expect(operations(v2).find((o) => o.name === name)!.op.security).toEqual([]);
    // and they are really public
    for (const url of ['/v2/health', '/v2/networks']) expect((await svc.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });
});

describe('GET /openapi.json on the x402 port', () => {
  it('describes every status of every route with a content schema, and the channel’s codes', () => {
    expect(Object.keys(x402Doc.paths)).toEqual(expect.arrayContaining(['/screen/{chain}/{address}']));
    expect(Object.keys(x402Doc.paths)).not.toContain('/mcp');
    expect(describesEveryStatus(x402Doc)).toEqual([]);
  });

  it('documents the 402: the quote header, an empty body or the refusal envelope, and the X-PAYMENT header', () => {
    const screen = x402Doc.paths['/screen/{chain}/{address}']!.get!;
    expect(screen.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['header:x-payment', 'path:chain', 'path:address']));
    const quote = screen.responses['402']!;
    expect(quote.headers).toHaveProperty('payment-required');
    expect(errorCodesOf(quote.content!['application/json']!.schema).sort()).toEqual(['payment_expired', 'payment_invalid', 'payment_replayed', 'payment_required', 'payment_underpaid']);
    expect(screen.responses['200']!.headers).toHaveProperty('payment-response');
    expect(x402Doc.components!.schemas).toHaveProperty('X402PaymentRequired');
    expect(x402Doc.components!.schemas).toHaveProperty('X402PaymentPayload');
  });

  it('the quote a real 402 carries is exactly the documented X402PaymentRequired', async () => {
    const response = await x402.inject({ method: 'GET', url: `/screen/eth/${madeUpEvmAddress('openapi-quote')}` });
    expect(response.statusCode).toBe(402);
    const header = response.headers['payment-required'];
    expect(typeof header).toBe('string');
    const quote: unknown = JSON.parse(Buffer.from(String(header), 'base64').toString('utf8'));
    expect(contractViolation(paymentRequiredSchema, quote)).toBeNull();
  });
});
