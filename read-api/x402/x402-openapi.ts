import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { X402_HEADER_COMPONENTS, X402_ROUTE_SCHEMAS } from '../schemas/x402.js';

/**
 * The x402 app's OpenAPI document. Its routes are registered by shared helpers (paid-route.ts,
 * free-route.ts), so their schemas are attached here, as each route is added, from read-api/schemas/x402.ts.
 * The request parts are documentation only: the handlers parse their own input and answer the channel's
 * codes (a schema must not refuse a request with another code first).
 */
export function describeX402Routes(app: FastifyInstance): void {
  // documented parts are not validated here: each handler parses its own input
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const described = methods.map((method) => X402_ROUTE_SCHEMAS[`${method} ${route.url}`]).find((schema) => schema !== undefined);
    if (described) route.schema = { ...route.schema, ...described };
    // the CORS preflight and the MCP door (JSON-RPC, described by its own tools/list) stay out of the document
    else if (!route.schema?.hide) route.schema = { ...route.schema, hide: true };
  });
}

const components = Object.fromEntries(
  Object.entries(X402_HEADER_COMPONENTS).map(([name, schema]) => {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'output' });
    return [name, json];
  }),
);

export const x402OpenApiOptions: SwaggerOptions = {
  openapi: {
    info: {
      title: 'Risk screening service: x402 pay-per-call',
      version: '2.0.0',
      description:
        'No account: a paid call without X-PAYMENT answers 402 with its quote in the payment-required header; pay it (EIP-3009) and send the proof in X-PAYMENT. Result URLs are free.',
    },
    components: { schemas: components as Record<string, object> },
  },
  transform: jsonSchemaTransform,
};
