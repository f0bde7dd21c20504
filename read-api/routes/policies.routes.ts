import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerAuth, callerOf } from '../auth.js';
import type { AppServices } from '../services.js';
import { policyActions } from './policies-actions.js';
import {
  activatePolicyBody,
  backtestBody,
  backtestParams,
  createPolicyBody,
  editPolicyBody,
  policyGetQuery,
  policyListQuery,
  policyParams,
} from './policies-schemas.js';
import { backtestSchema, policyDetailSchema, policyHistorySchema, policyListSchema } from '../schemas/policies.js';
import { BEARER_ERRORS, BODY_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';

/**
 * KYT policies of the caller's subgroups: the standard one (the default and the template) and the
 * subgroup's own, each a draft and numbered versions. Free; anyone outside the subgroup gets 404. Every
 * change names who and why, listed in `history`.
 */
export const policyRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));
  const actions = policyActions(services);
  const viewer = (request: Parameters<typeof callerOf>[0]) => actions.viewerOf(callerOf(request).userId);
  const SUBGROUP_ERRORS = ['not_found', 'kyt_requires_subgroup'] as const;

  app.get(
    '/v2/policies',
    {
      schema: {
        summary: 'The policies of one of your subgroups: the standard one and its own, saying which is active',
        tags: ['policies'],
        querystring: policyListQuery,
        response: responses({ 200: policyListSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, ...SUBGROUP_ERRORS]),
      },
    },
    async (request) => actions.list(await viewer(request), request.query),
  );

  app.post(
    '/v2/policies',
    {
      schema: {
        summary: 'Create a draft policy, copied from the standard policy (or another version) unless it brings its rules',
        tags: ['policies'],
        body: createPolicyBody,
        response: responses({ 201: policyDetailSchema }, [...BEARER_ERRORS, ...BODY_ERRORS, ...SUBGROUP_ERRORS]),
      },
    },
    async (request, reply) => reply.status(201).send(await actions.create(await viewer(request), request.body)),
  );

  app.get(
    '/v2/policies/:id',
    {
      schema: {
        summary: 'One policy: its draft, a version’s rules (the latest unless ?version=) and its versions',
        tags: ['policies'],
        params: policyParams,
        querystring: policyGetQuery,
        response: responses({ 200: policyDetailSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, ...SUBGROUP_ERRORS]),
      },
    },
    async (request) => actions.get(await viewer(request), request.params.id, request.query),
  );

  app.patch(
    '/v2/policies/:id',
    {
      schema: {
        summary: 'Edit the draft (a policy without one gets a draft from its latest version); the active version is untouched',
        tags: ['policies'],
        params: policyParams,
        body: editPolicyBody,
        response: responses({ 200: policyDetailSchema }, [...BEARER_ERRORS, ...BODY_ERRORS, ...SUBGROUP_ERRORS]),
      },
    },
    async (request) => actions.edit(await viewer(request), request.params.id, request.body),
  );

  app.post(
    '/v2/policies/:id/activate',
    {
      schema: {
        summary: 'Make the draft the next version and the one transfer checks apply, or activate an earlier version (or standard) again',
        tags: ['policies'],
        params: policyParams,
        body: activatePolicyBody,
        response: responses({ 200: policyDetailSchema }, [...BEARER_ERRORS, ...BODY_ERRORS, ...SUBGROUP_ERRORS]),
      },
    },
    async (request) => actions.activate(await viewer(request), request.params.id, request.body),
  );

  app.get(
    '/v2/policies/:id/history',
    {
      schema: {
        summary: 'Every change to the policy, oldest first: who, when, why',
        tags: ['policies'],
        params: policyParams,
        querystring: policyListQuery,
        response: responses({ 200: policyHistorySchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, ...SUBGROUP_ERRORS]),
      },
    },
    async (request) => actions.history(await viewer(request), request.params.id, request.query),
  );

  app.post(
    '/v2/policies/:id/backtest',
    {
      schema: {
        summary: 'Backtest a policy (its draft, or a version) over the subgroup’s recorded transfer checks, against the active policy',
        tags: ['policies'],
        params: policyParams,
        body: backtestBody,
        response: responses({ 200: backtestSchema, 202: backtestSchema }, [
          ...BEARER_ERRORS,
          ...BODY_ERRORS,
          ...SUBGROUP_ERRORS,
          'overloaded',
        ]),
      },
    },
    async (request, reply) => {
      const { status, body } = await actions.backtest(await viewer(request), request.params.id, request.body);
      return reply.status(status).send(body);
    },
  );

  app.get(
    '/v2/policies/backtests/:backtest_id',
    {
      schema: {
        summary: 'A backtest: its progress while it runs, then its report',
        tags: ['policies'],
        params: backtestParams,
        response: responses({ 200: backtestSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, 'not_found']),
      },
    },
    async (request) => actions.backtestResult(await viewer(request), request.params.backtest_id),
  );
};
