import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerAuth, callerOf } from '../auth.js';
import type { AppServices } from '../services.js';
import { alertActions } from './alerts-actions.js';
import { alertListQuery, alertParams, commentBody, subgroupParams, triageBody } from './alerts-schemas.js';
import { alertCommentSchema, alertDetailSchema, alertListSchema, subgroupMembersSchema } from '../schemas/alerts.js';
import { BEARER_ERRORS, BODY_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';

/**
 * Alert cases of transfer checks: one per alert, scoped to the subgroups of the key's user (anyone
 * else gets 404). Free reads and changes; every change is an event on the case's stream, listed in
 * `history`.
 */
export const alertRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));
  const actions = alertActions(services);
  const viewer = (request: Parameters<typeof callerOf>[0]) => actions.viewerOf(callerOf(request).userId);

  app.get(
    '/v2/alerts',
    {
      schema: {
        summary: 'Alert cases of your subgroups, newest first, paged like /v2/me/usage',
        tags: ['alerts'],
        querystring: alertListQuery,
        response: responses({ 200: alertListSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, 'not_found']),
      },
    },
    async (request) => actions.list(await viewer(request), request.query),
  );

  app.get(
    '/v2/subgroups/:subgroup_id/members',
    {
      schema: {
        summary: 'The members of one of your subgroups, by name: whom its alert cases can be assigned to (PATCH assignee)',
        tags: ['alerts'],
        params: subgroupParams,
        response: responses({ 200: subgroupMembersSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, 'not_found']),
      },
    },
    async (request) => actions.members(await viewer(request), request.params.subgroup_id),
  );

  app.get(
    '/v2/alerts/:id',
    {
      schema: {
        summary: 'One alert case with its comments and audit trail',
        tags: ['alerts'],
        params: alertParams,
        response: responses({ 200: alertDetailSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, 'not_found']),
      },
    },
    async (request) => actions.get(await viewer(request), request.params.id),
  );

  app.patch(
    '/v2/alerts/:id',
    {
      schema: {
        summary: 'Triage an alert case: status (closing needs a reason and a note), assignee (a member of the subgroup, or null)',
        tags: ['alerts'],
        params: alertParams,
        body: triageBody,
        response: responses({ 200: alertDetailSchema }, [...BEARER_ERRORS, ...BODY_ERRORS, 'not_found']),
      },
    },
    async (request) => actions.triage(await viewer(request), request.params.id, request.body),
  );

  app.post(
    '/v2/alerts/:id/comments',
    {
      schema: {
        summary: 'Comment on an alert case',
        tags: ['alerts'],
        params: alertParams,
        body: commentBody,
        response: responses({ 201: alertCommentSchema }, [...BEARER_ERRORS, ...BODY_ERRORS, 'not_found']),
      },
    },
    async (request, reply) => reply.status(201).send(await actions.comment(await viewer(request), request.params.id, request.body.text)),
  );
};
