import { present } from '../../domain/shared/present.js';
import { z } from 'zod';
import { bazaarResourceServerExtension, declareDiscoveryExtension, type DiscoveryExtension } from '@x402/extensions/bazaar';
import { jsonSchemaOf, type PaidBodyResource, type PaidOffer } from './paid-offers.js';

/**
 * The Bazaar discovery extension (`extensions.bazaar` of a quote) of a paid resource, built with
 * @x402/extensions itself so a facilitator's catalogue reads it as its own: how to call the resource
 * (input schema), what it answers (output schema and an example). The price is the quote's `accepts`.
 */
export type BazaarExtensions = { readonly bazaar: DiscoveryExtension };

/** A REST route's: its path parameters, filled with this request's values, and its method and route template. */
export function restDiscovery(offer: PaidOffer, request: { method: string; path: string }): BazaarExtensions {
  const declared = once(restDeclarations, offer, () => {
    const input = jsonSchemaOf(z.object(offer.input));
    return declareDiscoveryExtension({
      pathParamsSchema: { properties: input.properties, required: input.required },
      output: { example: offer.outputExample, schema: jsonSchemaOf(offer.output) },
    });
  });
  // The package's own enrichment adds the method, `routeTemplate` and the request's path parameters.
  const enriched = present(bazaarResourceServerExtension.enrichDeclaration, 'the bazaar extension always provides enrichDeclaration')(
    declared.bazaar,
    {
      method: request.method,
      routePattern: offer.routeTemplate,
      adapter: { getPath: () => request.path },
    },
  );
  return { bazaar: enriched as DiscoveryExtension };
}

/** A REST route taking a JSON body: the body's schema and an example, and its method. */
export function restBodyDiscovery(resource: PaidBodyResource, request: { method: string; path: string }): BazaarExtensions {
  const declared = once(bodyDeclarations, resource, () =>
    declareDiscoveryExtension({
      bodyType: 'json',
      input: resource.bodyExample,
      inputSchema: jsonSchemaOf(resource.body, 'input'),
      output: { example: resource.outputExample, schema: jsonSchemaOf(resource.output) },
    }),
  );
  const enriched = present(bazaarResourceServerExtension.enrichDeclaration, 'the bazaar extension always provides enrichDeclaration')(
    declared.bazaar,
    {
      method: request.method,
      routePattern: resource.routeTemplate,
      adapter: { getPath: () => request.path },
    },
  );
  return { bazaar: enriched as DiscoveryExtension };
}

/** An MCP tool's: its name, description, argument schema and output, on the Streamable HTTP transport. */
export function mcpDiscovery(offer: PaidOffer): BazaarExtensions {
  const declared = once(mcpDeclarations, offer, () =>
    declareDiscoveryExtension({
      toolName: offer.tool,
      description: offer.description,
      transport: 'streamable-http',
      inputSchema: jsonSchemaOf(z.object(offer.input)),
      output: { example: offer.outputExample, schema: jsonSchemaOf(offer.output) },
    }),
  );
  return { bazaar: present(declared.bazaar, 'the declaration was built with the bazaar extension just above') };
}

// Declarations depend on the offer alone: built once per offer (a handful), not on every 402.
const restDeclarations = new Map<PaidOffer, Record<string, DiscoveryExtension>>();
const mcpDeclarations = new Map<PaidOffer, Record<string, DiscoveryExtension>>();
const bodyDeclarations = new Map<PaidBodyResource, Record<string, DiscoveryExtension>>();
function once<K, V>(cache: Map<K, V>, offer: K, build: () => V): V {
  if (!cache.has(offer)) cache.set(offer, build());
  return present(cache.get(offer), 'set just above when absent');
}
