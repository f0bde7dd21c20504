import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SCREEN_NETWORKS, TRANSFER_CHAINS } from '../../domain/shared/network.js';
import type { AppServices } from '../services.js';

/** Free, unauthenticated: liveness and the networks each endpoint accepts. */
export const systemRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get('/v2/health', { schema: { summary: 'Liveness and data versions', tags: ['system'] } }, async (_request, reply) => {
    const info = services.info();
    const datasets = services.commands.intel.datasets();
    return reply.status(info.ready ? 200 : 503).send({
      status: info.ready ? 'ok' : 'starting',
      version: info.version,
      mode: info.mode,
      // The id verdicts carry in coverage.data_versions.snapshot: the whole data state.
      data_snapshot: services.commands.intel.snapshot(),
      datasets: datasets.map((d) => ({ source: d.source, version: d.version, content_hash: d.contentHash, claims: d.claimCount })),
    });
  });

  app.get('/v2/networks', { schema: { summary: 'Networks and chains accepted by each endpoint', tags: ['system'] } }, async () => ({
    screen: [...SCREEN_NETWORKS],
    check_address: [...SCREEN_NETWORKS],
    inspect_address: [...SCREEN_NETWORKS],
    check_transfer: [...TRANSFER_CHAINS],
  }));
};
