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

/** The named part, or a failed test that says which is missing. */
function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the document has no ${what}`);
  return value;
}
const operation = (doc: Document, path: string, method: string): Operation => must(doc.paths[path]?.[method], `${method} ${path}`);
const responseOf = (op: Operation, status: string) => must(op.responses[status], `${status} response`);
const jsonSchemaOf = (op: Operation, status: string): Schema =>
  must(responseOf(op, status).content?.['application/json']?.schema, `${status} content`);
const bodyOf = (op: Operation): Schema => must(op.requestBody?.content['application/json']?.schema, 'request body');
const fieldOf = (schema: Schema, field: string): Schema => must(schema.properties?.[field], `field ${field}`);
const matches = (schema: Schema, value: string): boolean => new RegExp(must(schema.pattern, 'pattern')).test(value);

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

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
        const unknown = codes.filter((code) => !(ERROR_CODES as readonly unknown[]).includes(code));
        problems.push(...unknown.map((code) => `${name} ${status}: unknown code ${String(code)}`));
      }
    }
    for (const parameter of op.parameters ?? []) problems.push(...shapeProblems(name, parameter.name, parameter.schema));
    const body = op.requestBody?.content['application/json']?.schema;
    for (const [field, schema] of Object.entries(body?.properties ?? {})) problems.push(...shapeProblems(name, field, schema));
  }
  return problems;
}

let svc: TestService | undefined;
let v2: Document;
let x402: FastifyInstance | undefined;
let x402Doc: Document;

beforeAll(async () => {
  // a 402 touches no chain: the RPC is never called (nothing listens on port 9)
  const started = await startTestService({
    X402_PAY_TO: madeUpEvmAddress('openapi-pay-to'),
    X402_NETWORK: 'base-sepolia',
    X402_RPC_URL: 'http://127.0.0.1:9',
    X402_GAS_WALLET_KEY: `0x${'11'.repeat(32)}`,
  });
  svc = started;
  v2 = (await started.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
  const x402Services = started.services.x402.app;
  if (!x402Services) throw new Error('the x402 app is not configured');
  const app = await buildX402App(x402Services);
  x402 = app;
  x402Doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
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
    expect(Object.keys(operation(v2, '/v2/check-address', 'post').responses)).toContain('202');
    expect(Object.keys(operation(v2, '/v2/check-address/{check_id}/result', 'get').responses)).toEqual(
      expect.arrayContaining(['200', '202', '404', '502']),
    );
    expect(Object.keys(operation(v2, '/v1/webhooks', 'post').responses)).toContain('201');
    expect(responseOf(operation(v2, '/v1/webhooks/{id}', 'delete'), '204').content).toBeUndefined();
    expect(responseOf(operation(v2, '/v2/monitors/{id}', 'delete'), '204').content).toBeUndefined();
  });

  it('gives the error envelope per status with its codes (402 on a charged call: the refusals)', () => {
    const screen = operation(v2, '/v2/screen', 'post');
    expect(errorCodesOf(jsonSchemaOf(screen, '401')).sort()).toEqual(['invalid_api_key', 'missing_api_key']);
    expect(errorCodesOf(jsonSchemaOf(screen, '402')).sort()).toEqual(['insufficient_funds', 'monthly_cap_exceeded', 'quota_exceeded']);
    expect(errorCodesOf(jsonSchemaOf(screen, '400')).sort()).toEqual(['bad_request', 'unsupported_network']);
    expect(jsonSchemaOf(screen, '422').properties).toHaveProperty('detail');
  });

  it('takes networks and chains from the code’s own lists, and patterns for addresses and hashes', () => {
    const screenBody = bodyOf(operation(v2, '/v2/screen', 'post'));
    expect(fieldOf(screenBody, 'network').enum).toEqual([...SCREEN_NETWORKS]);
    expect(matches(fieldOf(screenBody, 'address'), '0x' + 'ab'.repeat(20))).toBe(true);
    expect(matches(fieldOf(screenBody, 'address'), 'T' + 'x'.repeat(33))).toBe(true);
    expect(matches(fieldOf(screenBody, 'address'), '0x1234')).toBe(false);
    const transferBody = bodyOf(operation(v2, '/v2/check-transfer', 'post'));
    expect(fieldOf(transferBody, 'chain').enum).toEqual([...TRANSFER_CHAINS]);
    expect(matches(fieldOf(transferBody, 'tx_hash'), '0x' + 'cd'.repeat(32))).toBe(true);
    expect(matches(fieldOf(transferBody, 'tx_hash'), '0x' + 'cd'.repeat(20))).toBe(false);
  });

  it('declares security: [] on the public routes only; the rest inherit the bearer requirement', async () => {
    expect(v2.security).toEqual([{ bearer: [] }]);
    const open = operations(v2).filter(({ op }) => op.security !== undefined);
    expect(open.map(({ name }) => name).sort()).toEqual(['GET /.well-known/jwks.json', 'GET /v2/health', 'GET /v2/networks']);
    for (const { op } of open) expect(op.security).toEqual([]);
    // and they are really public
    const app = must(svc, 'service').app;
    for (const url of ['/.well-known/jwks.json', '/v2/health', '/v2/networks'])
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });
});

describe('GET /openapi.json on the x402 port', () => {
  it('describes every status of every route with a content schema, and the channel’s codes', () => {
    expect(Object.keys(x402Doc.paths)).toEqual(expect.arrayContaining(['/screen/{chain}/{address}']));
    expect(Object.keys(x402Doc.paths)).not.toContain('/mcp');
    expect(describesEveryStatus(x402Doc)).toEqual([]);
  });

  it('documents the 402: the quote header, an empty body or the refusal envelope, and the X-PAYMENT header', () => {
    const screen = operation(x402Doc, '/screen/{chain}/{address}', 'get');
    expect((screen.parameters ?? []).map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['header:x-payment', 'path:chain', 'path:address']),
    );
    expect(responseOf(screen, '402').headers).toHaveProperty('payment-required');
    expect(errorCodesOf(jsonSchemaOf(screen, '402')).sort()).toEqual([
      'payment_expired',
      'payment_invalid',
      'payment_replayed',
      'payment_required',
      'payment_underpaid',
    ]);
    expect(responseOf(screen, '200').headers).toHaveProperty('payment-response');
    expect(x402Doc.components?.schemas).toHaveProperty('X402PaymentRequired');
    expect(x402Doc.components?.schemas).toHaveProperty('X402PaymentPayload');
  });

  it('the quote a real 402 carries is exactly the documented X402PaymentRequired', async () => {
    const response = await must(x402, 'x402 app').inject({ method: 'GET', url: `/screen/eth/${madeUpEvmAddress('openapi-quote')}` });
    expect(response.statusCode).toBe(402);
    const header = response.headers['payment-required'];
    expect(typeof header).toBe('string');
    const quote: unknown = JSON.parse(Buffer.from(String(header), 'base64').toString('utf8'));
    expect(contractViolation(paymentRequiredSchema, quote)).toBeNull();
  });
});
