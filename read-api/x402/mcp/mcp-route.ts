import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RateLimiter } from '../rate-limiter.js';
import type { X402AppServices } from '../x402-services.js';
import { buildMcpServer } from './mcp-tools.js';

const NOT_ALLOWED = { jsonrpc: '2.0', error: { code: -32000, message: 'this MCP endpoint is stateless: POST only' }, id: null };

/**
 * `{x402_url}/mcp`: MCP over the Streamable HTTP transport, stateless (a server per request, JSON
 * answers, no session), so any replica serves any call and nothing is kept between calls. GET (a server
 * stream) and DELETE (a session end) have nothing to serve: 405.
 */
export function registerMcpRoute(app: FastifyInstance, context: { services: X402AppServices; limiter: RateLimiter }): void {
  app.post('/mcp', async (request, reply) => {
    const base = context.services.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
    const server = buildMcpServer({ app, ...context, clientIp: request.ip, requestId: String(request.id), baseUrl: base });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.setHeader('access-control-allow-origin', '*');
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      // the reply is ours once hijacked: answer it, or the client would wait for ever
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' });
      if (!reply.raw.writableEnded)
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
    }
  });
  const notAllowed = async (_request: unknown, reply: FastifyReply) => reply.status(405).header('allow', 'POST').send(NOT_ALLOWED);
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
