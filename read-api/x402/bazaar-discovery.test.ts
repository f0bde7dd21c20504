import { PaymentRequiredV2Schema, type PaymentRequiredV2 } from '@x402/core/schemas';
import {
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
  type DiscoveryExtension,
  type McpDiscoveryExtension,
  type QueryDiscoveryExtension,
} from '@x402/extensions/bazaar';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { quoteFor } from '../../domain/x402/quote.js';
import { X402_NETWORKS } from '../../domain/x402/x402-networks.js';
import { mcpDiscovery, restBodyDiscovery, restDiscovery, type BazaarExtensions } from './bazaar-discovery.js';
import { PAID_BODY_RESOURCES, PAID_OFFERS, type PaidOffer } from './paid-offers.js';

const offers: PaidOffer[] = Object.values(PAID_OFFERS);
const terms = {
  network: X402_NETWORKS['base-sepolia'],
  payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  maxTimeoutSeconds: 300,
} as const;
const pathOf = (offer: PaidOffer) =>
  offer.routeTemplate
    .replace(':chain', 'ETH')
    .replace(':address', '0x098B716B8Aaf21512996dC57EB0615e2383E2f96')
    .replace(':tx_hash', `0x${'ab'.repeat(32)}`);

describe('Bazaar discovery metadata of the paid x402 resources', () => {
  it('is, at the type level, what @x402/extensions declares and what an x402 v2 quote carries', () => {
    expectTypeOf<BazaarExtensions['bazaar']>().toEqualTypeOf<DiscoveryExtension>();
    expectTypeOf<BazaarExtensions>().toExtend<NonNullable<PaymentRequiredV2['extensions']>>();
    expectTypeOf<McpDiscoveryExtension>().toExtend<BazaarExtensions['bazaar']>();
    expectTypeOf<QueryDiscoveryExtension>().toExtend<BazaarExtensions['bazaar']>();
  });

  it.each(offers)('REST $routeTemplate: valid against its own schema and the Bazaar spec, with this request filled in', (offer) => {
    const { bazaar } = restDiscovery(offer, { method: 'GET', path: pathOf(offer) });
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
    expect(bazaar).toMatchObject({
      routeTemplate: offer.routeTemplate,
      info: { input: { type: 'http', method: 'GET' }, output: { type: 'json' } },
    });
    expect((bazaar.info.input as { pathParams: Record<string, string> }).pathParams.chain).toBe('ETH');
  });

  it.each(offers)('MCP $tool: valid against its own schema and the Bazaar spec', (offer) => {
    const { bazaar } = mcpDiscovery(offer);
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
    expect(bazaar.info.input).toMatchObject({
      type: 'mcp',
      toolName: offer.tool,
      transport: 'streamable-http',
      inputSchema: { type: 'object' },
    });
  });

  it('REST POST /explore: the JSON body schema and example, valid against its own schema and the Bazaar spec', () => {
    const { bazaar } = restBodyDiscovery(PAID_BODY_RESOURCES.explore, { method: 'POST', path: '/explore' });
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
    expect(bazaar.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json', body: { network: 'ETH' } });
    const wrongBody = { ...PAID_BODY_RESOURCES.explore, bodyExample: { address: 1 } };
    expect(validateDiscoveryExtension(restBodyDiscovery(wrongBody, { method: 'POST', path: '/explore' }).bazaar).valid).toBe(false);
  });

  it('the validation bites: an output example that breaks its schema, or a request off the route, is refused', () => {
    const broken = { ...PAID_OFFERS.screen, outputExample: { ...PAID_OFFERS.screen.outputExample, network: 'DOGE' } };
    expect(validateDiscoveryExtension(mcpDiscovery(broken).bazaar).valid).toBe(false);
    expect(validateDiscoveryExtension(restDiscovery(PAID_OFFERS.screen, { method: 'GET', path: '/elsewhere' }).bazaar).valid).toBe(false);
    expect(validateDiscoveryExtension(restDiscovery(PAID_OFFERS.screen, { method: 'GET', path: '/screen/ETH/0xabc' }).bazaar).valid).toBe(
      false,
    );
  });

  it('a quote with the extension is a valid x402 v2 PaymentRequired for the reference client', () => {
    const quote = {
      ...quoteFor(terms, { priceMicros: 100_000, url: 'https://x402.example/mcp', description: 'd', error: 'payment_required' }),
      extensions: mcpDiscovery(PAID_OFFERS.screen),
    };
    const parsed = PaymentRequiredV2Schema.safeParse(quote);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.extensions?.bazaar).toEqual(quote.extensions.bazaar);
  });
});
