import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createMonitor, deleteMonitor } from '../../commands/monitors.commands.js';
import { fail, isServiceError } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf, type Caller } from '../auth.js';
import {
  presentBulkWatched,
  presentMonitorWatched,
  type BulkEntryOutcome,
  type BulkWatched,
  type MonitorWatched,
} from '../presenters/monitor.presenter.js';
import { presentedCall, type Presented } from '../presenters/presented.js';
import { bulkWatchedSchema, monitorWatchedSchema } from '../presenters/monitor-outcome.schema.js';
import type { OutcomeSchema } from '../../commands/idempotent-call.js';
import type { AppServices, MonitorApi } from '../services.js';
import { RequestValidationError, toValidationDetail } from '../validation.js';
import { parseAddressInput } from './address-input.js';
import { bulkMonitorBody, MAX_BULK_MONITORS, monitorEntry, monitorListQuery, monitorParams } from './monitor-schemas.js';
import { monitorChangeOf, monitorFromDoc } from './monitor-views.js';
import { idempotencyHeader } from './request-schemas.js';
import { ADDRESS_ERRORS, BEARER_ERRORS, BODY_ERRORS, CHARGE_ERRORS, INPUT_ERRORS, noContent, responses } from '../schemas/responses.js';
import { bulkMonitorResultSchema, monitorCreatedSchema, monitorDetailSchema, monitorListSchema } from '../schemas/monitors.js';

/** A bulk body of 1,000 entries is larger than the API's usual 16 KiB. */
const BULK_BODY_LIMIT_BYTES = 512 * 1024;
/** Bulk entries created at once: their charges share one ledger append per batch. */
const BULK_CONCURRENCY = 100;

/**
 * /v2/monitors: standing watches on addresses, re-screened whenever the intelligence changes (docs/api.md,
 * "Monitors"). Writes wait until the read model shows them, so a read right after a write sees it.
 */
export const monitorRoutes: FastifyPluginAsyncZod<{ services: AppServices; monitors: MonitorApi }> = async (
  app,
  { services, monitors },
) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));
  const tags = ['monitors'];

  /** One entry: 201 created (charged), 200 already watched (not charged); errors as ServiceErrors. */
  async function createOne(
    caller: Caller,
    callId: string,
    entry: { address: string; network: string; reference?: string | null | undefined },
  ): Promise<MonitorWatched> {
    const { address, network } = parseAddressInput(entry);
    const created = await createMonitor(services.commands, {
      userId: caller.userId,
      keyId: caller.keyId,
      callId,
      address,
      network,
      reference: entry.reference ?? null,
    });
    await services.whenProjected(created.position);
    return { kind: 'watched', created: created.created, state: created.state, billing: created.billing };
  }

  /** A write under an optional Idempotency-Key; `call.outcome` is the schema its stored outcome is replayed by. */
  async function idempotent<Outcome>(
    request: { headers: Record<string, unknown> },
    caller: Caller,
    call: { route: string; body: unknown; outcome: OutcomeSchema<Outcome> },
    run: (callId: string) => Promise<Outcome>,
    present: (outcome: Outcome) => Presented<unknown>,
  ): Promise<Presented<unknown>> {
    const key = request.headers['idempotency-key'];
    return presentedCall(
      services.commands,
      { ...call, key: typeof key === 'string' ? key : undefined, userId: caller.userId },
      run,
      present,
    );
  }

  app.post(
    '/v2/monitors',
    {
      schema: {
        summary: 'Watch an address: re-screened on every intelligence change (charged per address per month)',
        tags,
        body: monitorEntry,
        headers: idempotencyHeader,
        response: responses(
          {
            200: monitorCreatedSchema.meta({ description: 'Already watched (not charged)' }),
            201: monitorCreatedSchema.meta({ description: 'Watched (charged)' }),
          },
          [...BEARER_ERRORS, ...BODY_ERRORS, ...ADDRESS_ERRORS, ...CHARGE_ERRORS, 'idempotency_conflict', 'backend_unavailable'],
        ),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const response = await idempotent(
        request,
        caller,
        { route: 'POST /v2/monitors', body: request.body, outcome: monitorWatchedSchema },
        (callId) => createOne(caller, callId, request.body),
        presentMonitorWatched,
      );
      return reply.status(response.status).send(response.body);
    },
  );

  app.post(
    '/v2/monitors/bulk',
    {
      bodyLimit: BULK_BODY_LIMIT_BYTES,
      schema: {
        summary: `Watch up to ${MAX_BULK_MONITORS} addresses at once; one result per entry`,
        tags,
        body: bulkMonitorBody,
        headers: idempotencyHeader,
        response: responses({ 200: bulkMonitorResultSchema }, [...BEARER_ERRORS, ...BODY_ERRORS, 'idempotency_conflict']),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const entries = request.body.monitors;
      const run = async (callId: string): Promise<BulkWatched> => {
        const results: BulkEntryOutcome[] = new Array<BulkEntryOutcome>(entries.length);
        for (let start = 0; start < entries.length; start += BULK_CONCURRENCY) {
          await Promise.all(
            entries.slice(start, start + BULK_CONCURRENCY).map(async (raw, offset) => {
              const index = start + offset;
              results[index] = await bulkEntry(caller, `${callId}:${index}`, raw);
            }),
          );
        }
        return { kind: 'bulk', entries: results };
      };
      const response = await idempotent(
        request,
        caller,
        { route: 'POST /v2/monitors/bulk', body: request.body, outcome: bulkWatchedSchema },
        run,
        presentBulkWatched,
      );
      return reply.status(response.status).send(response.body);
    },
  );

  /** One bulk entry's outcome: the watch, or why it was refused (presented as the single POST would answer). */
  async function bulkEntry(caller: Caller, callId: string, raw: unknown): Promise<BulkEntryOutcome> {
    const parsed = monitorEntry.safeParse(raw);
    if (!parsed.success) return { kind: 'invalid', detail: toValidationDetail(parsed.error, 'body', raw) };
    try {
      return await createOne(caller, callId, parsed.data);
    } catch (error) {
      if (error instanceof RequestValidationError) return { kind: 'invalid', detail: error.detail };
      if (isServiceError(error))
        return {
          kind: 'refused',
          failure: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) },
        };
      throw error;
    }
  }

  app.get(
    '/v2/monitors',
    {
      schema: {
        summary: 'Your monitors, newest first',
        tags,
        querystring: monitorListQuery,
        response: responses({ 200: monitorListSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS]),
      },
    },
    async (request) => {
      const { page, page_size: pageSize } = request.query;
      const found = await monitors.repository.page(callerOf(request).userId, { page, pageSize });
      return {
        data: found.rows.map(monitorFromDoc),
        pagination: { page, page_size: pageSize, total: found.total, total_pages: Math.ceil(found.total / pageSize) },
      };
    },
  );

  async function ownDoc(userId: string, monitorId: string) {
    const doc = await monitors.repository.get(monitorId);
    if (doc === null || doc.user_id !== userId) throw fail('not_found', 'no such monitor');
    return doc;
  }

  app.get(
    '/v2/monitors/:id',
    {
      schema: {
        summary: 'One monitor: its current verdict and the history of its changes',
        tags,
        params: monitorParams,
        response: responses({ 200: monitorDetailSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, 'not_found']),
      },
    },
    async (request) => {
      const doc = await ownDoc(callerOf(request).userId, request.params.id);
      return { ...monitorFromDoc(doc), history: doc.history.map(monitorChangeOf) };
    },
  );

  app.delete(
    '/v2/monitors/:id',
    {
      schema: {
        summary: 'Stop watching; the month already paid is not refunded',
        tags,
        params: monitorParams,
        response: responses({ 204: noContent('Stopped') }, [...BEARER_ERRORS, ...BODY_ERRORS, 'not_found']),
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      await ownDoc(userId, request.params.id);
      await services.whenProjected(await deleteMonitor(services.commands, { userId, monitorId: request.params.id }));
      return reply.status(204).send();
    },
  );
};
