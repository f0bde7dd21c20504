import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { screenAddress } from '../../commands/screen-address.js';
import { bearerAuth, callerOf } from '../auth.js';
import { presentedCall } from '../presenters/presented.js';
import { presentScreen } from '../presenters/screen.presenter.js';
import type { AppServices } from '../services.js';
import { parseAddressInput } from './address-input.js';
import { addressBody, idempotencyHeader } from './request-schemas.js';
import { screenResultSchema } from '../schemas/screen.js';
import { ADDRESS_ERRORS, BEARER_ERRORS, BODY_ERRORS, CHARGE_ERRORS, responses } from '../schemas/responses.js';
import { screenOutcomeSchema } from '../../domain/idempotency/keyed-outcomes.js';

/** POST /v2/screen: the light screen, 0.10 USD or 1 unit per call. */
export const screenRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));

  app.post(
    '/v2/screen',
    {
      schema: {
        summary: 'Light screen of an address: sanctions and consensus labels, no graph',
        tags: ['screen'],
        body: addressBody,
        headers: idempotencyHeader,
        response: responses({ 200: screenResultSchema }, [
          ...BEARER_ERRORS,
          ...BODY_ERRORS,
          ...ADDRESS_ERRORS,
          ...CHARGE_ERRORS,
          'idempotency_conflict',
          'backend_unavailable',
        ]),
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const { address, network } = parseAddressInput(request.body);
      const run = (callId: string) => screenAddress(services.commands, { ...caller, callId, address, network });
      const key = request.headers['idempotency-key'];
      const response = await presentedCall(
        services.commands,
        { key, userId: caller.userId, route: 'POST /v2/screen', body: { address, network }, outcome: screenOutcomeSchema },
        run,
        presentScreen,
      );
      const body = { ...(response.body as object), elapsed_ms: Math.round(performance.now() - started) };
      return reply.status(response.status).send(body);
    },
  );
};
