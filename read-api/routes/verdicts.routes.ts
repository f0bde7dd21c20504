import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliverAddressCheckResult } from '../../commands/address-check.commands.js';
import { deliverInspect } from '../../commands/inspect/deliver-inspect.js';
import { deliverTransferCheck, ownedBy } from '../../commands/kyt/deliver-transfer-check.js';
import { loadTransferCheck } from '../../commands/kyt/transfer-check.commands.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf, type Caller } from '../auth.js';
import { presentCheckDelivery } from '../presenters/address-check.presenter.js';
import { presentInspectDelivery } from '../presenters/inspect.presenter.js';
import { presentStoredVerdict, type StoredVerdictFacts } from '../presenters/stored-verdict.presenter.js';
import { presentTransferDelivery } from '../presenters/transfer.presenter.js';
import { presentScreenSummary, storedScreenSummary } from '../presenters/screen.presenter.js';
import type { CheckHistoryDoc } from '../../projections/check-history.projection.js';
import type { AppServices } from '../services.js';
import { BEARER_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';
import { storedVerdictSchema, verdictReplaySchema } from '../schemas/verdicts.js';
import { replayVerdict } from '../../commands/replay/replay-verdict.js';
import { findStoredVerdict, type FoundVerdict } from './stored-verdict-lookup.js';
import { presentMonitorChangeVerdict } from '../presenters/monitor-change-verdict.presenter.js';
import { presentVerdictReplay } from '../presenters/verdict-replay.presenter.js';
import { createBoundedWork } from '../dashboard/bounded-work.js';

/** A replay is free and may read the whole log for up to its time bound: a few at once per process, the rest refused. */
const MAX_CONCURRENT_REPLAYS = 2;

/**
 * GET /v2/verdicts/{verdict_id}: a verdict the account was given (light screen, full check, transfer
 * check, inspect, a monitor's change), read back at no cost with its receipt. Someone else's verdict is a
 * 404, like a missing one. The account's History (check-history) finds the charged ones; a monitor's
 * change (`{monitor_id}:{change}`, not charged) is read from its monitor's stream.
 */
export const verdictRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));
  const replays = createBoundedWork({ maxConcurrent: MAX_CONCURRENT_REPLAYS, maxQueued: 0 });
  const lookup = { history: services.alerts.history, log: services.replay.deps.log };

  app.get(
    '/v2/verdicts/:verdict_id',
    {
      schema: {
        summary: 'A verdict you were given, and its receipt (free)',
        tags: ['verdicts'],
        // any string: what is not one of the caller's verdicts is 404, never a validation error
        params: z.object({ verdict_id: z.string() }),
        response: responses({ 200: storedVerdictSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS, 'not_found']),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const found = await findStoredVerdict(lookup, caller.userId, request.params.verdict_id);
      if (!found) throw fail('not_found', 'no such verdict');
      const response =
        found.kind === 'monitor_change'
          ? presentMonitorChangeVerdict(found.change)
          : presentStoredVerdict(found.row, await storedFacts(services, caller, found));
      return reply.status(response.status).send(response.body);
    },
  );

  app.post(
    '/v2/verdicts/:verdict_id/replay',
    {
      schema: {
        summary: 'Recompute a verdict you were given as of its time, and optionally with today’s data (free)',
        tags: ['verdicts'],
        params: z.object({ verdict_id: z.string() }),
        querystring: z.object({
          today: z.enum(['true', 'false']).optional().meta({ description: 'Also recompute with today’s data ("what changed since")' }),
        }),
        response: responses({ 200: verdictReplaySchema }, [
          ...BEARER_ERRORS,
          ...INPUT_ERRORS,
          'not_found',
          'bad_request',
          'gateway_timeout',
          'overloaded',
        ]),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const found = await findStoredVerdict(lookup, caller.userId, request.params.verdict_id);
      if (!found) throw fail('not_found', 'no such verdict');
      const { deps, timeoutMs } = services.replay;
      const { ref } = found;
      const replay = await replays.run(() => replayVerdict(deps, ref, { today: request.query.today === 'true', timeoutMs }));
      if (!replay) throw fail('overloaded', `${MAX_CONCURRENT_REPLAYS} replays are running: retry when one finishes`);
      const response = presentVerdictReplay(replay.value);
      return reply.status(response.status).send(response.body);
    },
  );
};

type HistoryVerdict = Extract<FoundVerdict, { kind: 'history' }>;

/** A charged check is delivered again as its own poll delivers it: a replay, never charged twice. */
async function storedFacts(services: AppServices, caller: Caller, found: HistoryVerdict): Promise<StoredVerdictFacts> {
  const { row, ref } = found;
  switch (row.kind) {
    case 'screen':
      // The receipt was read from the screen's charge with the lookup (the replay takes it too).
      return { body: summaryBody(row), receipt: ('screen' in ref ? ref.screen.receipt : undefined) ?? null };
    case 'check_address':
      return completed(presentCheckDelivery(await deliverAddressCheckResult(services.commands, { checkId: row.id, ...caller })));
    case 'check_transfer': {
      const { deps } = services.transfers;
      const state = await loadTransferCheck(deps, row.id);
      if (!ownedBy(state, caller.userId)) throw fail('not_found', 'no such verdict');
      return completed(presentTransferDelivery(await deliverTransferCheck(deps, state, caller)));
    }
    case 'inspect':
      return completed(presentInspectDelivery(await deliverInspect(services.commands, { userId: caller.userId, checkId: row.id })));
    default:
      throw fail('not_found', 'no such verdict');
  }
}

function summaryBody(row: CheckHistoryDoc): StoredVerdictFacts['body'] {
  const summary = storedScreenSummary(row);
  return summary ? presentScreenSummary(summary) : null;
}

function completed(response: { status: number; body: object }): StoredVerdictFacts {
  // A charged check has completed: its charge is taken on its first delivery of a result.
  if (response.status !== 200) throw fail('not_found', 'no such verdict');
  const body = response.body as Readonly<Record<string, unknown>>;
  return { body, receipt: typeof body.receipt === 'string' ? body.receipt : null };
}
