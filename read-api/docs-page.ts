import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** Where the API reference is served, on the V2 app and on the x402 app. */
export const DOCS_PATH = '/docs';

/**
 * Swagger UI's own files come from the package (no CDN), so the page keeps a CSP as strict as the
 * dashboard's: nothing inline, nothing from another origin. Its React rendering sets styles through the
 * DOM (allowed); `data:` images are the icons its stylesheet embeds. "Try it out" calls this origin only.
 */
const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The interactive API reference at /docs, rendered from the app's own OpenAPI document (the one
 * `app.swagger()` builds, so it cannot differ from the served JSON). The app must have @fastify/swagger
 * registered. Encapsulated: the security headers below apply to the page and its assets only.
 */
export async function registerDocsPage(app: FastifyInstance, options: { title: string }): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      reply.header('x-frame-options', 'DENY');
    });
    await scope.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      // no calls to validator.swagger.io: the page reaches nothing outside this service
      validatorUrl: false,
      theme: { title: options.title },
      // BaseLayout: without the standalone top bar, whose Swagger logo is an SVG with an inline <style>
      // that the CSP refuses (and whose URL box would let the page load other documents)
      uiConfig: { layout: 'BaseLayout', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, persistAuthorization: false },
    });
  });
}
