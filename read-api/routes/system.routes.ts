import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sanctionsCoverageBody } from '../../domain/webhooks/sanctions-coverage.words.js';
import { sanctionsCoverage } from '../../domain/coverage/sanctions-coverage.js';
import { dataDegradations } from '../../domain/intel/sanctions-data.js';
import { SCREEN_NETWORKS, TRANSFER_CHAINS } from '../../domain/shared/network.js';
import type { AppServices } from '../services.js';
import { closingBody, errorResponses } from '../schemas/errors.js';
import { PUBLIC_ERRORS, responses } from '../schemas/responses.js';
import { healthSchema, networksSchema } from '../schemas/system.js';

/** Free, unauthenticated: liveness and the networks each endpoint accepts. */
export const systemRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/v2/health',
    {
      schema: {
        summary: 'Liveness and data versions',
        tags: ['system'],
        security: [],
        response: {
          ...errorResponses(['bad_request', 'rate_limit_exceeded', 'internal_error']),
          200: healthSchema,
          503: z
            .union([healthSchema, closingBody])
            .meta({ description: 'Starting (the health body with status starting), or shutting down' }),
        },
      },
    },
    async (_request, reply) => {
      const info = services.info();
      const datasets = services.commands.intel.datasets();
      // Degraded (still 200: the service answers, and says why): no sanctions list, a jurisdiction without one, or one past its age.
      const intel = services.commands.intel;
      const reasons = info.ready
        ? dataDegradations(datasets, services.commands.clock.now(), services.sanctionsMaxAgeDays ?? 14, intel.requiredSanctions)
        : [];
      return reply.status(info.ready ? 200 : 503).send({
        status: info.ready ? (reasons.length > 0 ? 'degraded' : 'ok') : 'starting',
        ...(reasons.length > 0 ? { reasons } : {}),
        version: info.version,
        mode: info.mode,
        // What a verdict made now would say it was checked against, and the jurisdictions required to screen.
        sanctions: {
          ...sanctionsCoverageBody(sanctionsCoverage(datasets, services.commands.clock.now())),
          required: [...(intel.requiredSanctions ?? [])],
        },
        // The id verdicts carry in coverage.data_versions.snapshot: the whole data state.
        data_snapshot: services.commands.intel.snapshot(),
        datasets: datasets.map((d) => ({ source: d.source, version: d.version, content_hash: d.contentHash, claims: d.claimCount })),
      });
    },
  );

  app.get(
    '/v2/networks',
    {
      schema: {
        summary: 'Networks and chains accepted by each endpoint',
        tags: ['system'],
        security: [],
        response: responses({ 200: networksSchema }, PUBLIC_ERRORS),
      },
    },
    async () => ({
      screen: [...SCREEN_NETWORKS],
      check_address: [...SCREEN_NETWORKS],
      inspect_address: [...SCREEN_NETWORKS],
      check_transfer: [...TRANSFER_CHAINS],
    }),
  );
};
