import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { startInspect } from '../../../commands/inspect/start-inspect.js';
import { awaitTransferCheck, submitTransferCheck } from '../../../commands/kyt/transfer-check.commands.js';
import { selectProviders } from '../../../domain/inspect/provider-selection.js';
import { fail, isServiceError } from '../../../domain/shared/errors.js';
import { parseAddressInput } from '../../routes/address-input.js';
import { parseTransferInput } from '../../routes/transfer-input.js';
import type { AppServices } from '../../services.js';
import { RequestValidationError } from '../../validation.js';
import { requireUser, type DashboardUser } from '../session-auth.js';
import { inspectFormPage, transferFormPage, type InspectForm } from './check-forms.page.js';
import { DASHBOARD_KEY_ID } from './screen.routes.js';

const transferForm = z.object({
  csrf: z.string().optional(),
  chain: z.string().max(20).default('ETH'),
  tx_hash: z.string().max(80).default(''),
});
const inspectForm = z.object({
  csrf: z.string().optional(),
  address: z.string().max(120).default(''),
  network: z.string().max(20).default('ETH'),
  providers: z
    .union([z.string().max(64), z.array(z.string().max(64)).max(32)])
    .transform((value) => [value].flat())
    .optional(),
});

/** A refusal the form explains above itself, with the status the API gives it; null for anything else. */
function refusal(error: unknown): { status: number; message: string } | null {
  if (error instanceof RequestValidationError) return { status: 422, message: error.detail.map((d) => d.msg).join('; ') };
  if (!isServiceError(error)) return null;
  switch (error.code) {
    case 'bad_request':
    case 'unsupported_network':
      return { status: 400, message: error.message };
    case 'insufficient_funds':
    case 'quota_exceeded':
    case 'monthly_cap_exceeded':
      return { status: 402, message: `Not run: ${error.message}. Nothing was charged.` };
    case 'consensus_not_entitled':
      return { status: 403, message: error.message };
    case 'kyt_requires_subgroup':
      return { status: 409, message: `Not run: ${error.message}.` };
    default:
      return null;
  }
}

/**
 * The workbench's transfer check and inspect forms: each runs the very command its API route runs
 * (billed alike, listed in Usage and History without a key), then shows the check's own page.
 */
export function checkFormRoutes(services: AppServices): FastifyPluginAsync {
  const deps = services.commands;
  const send = (reply: FastifyReply, status: number, body: { value: string }) =>
    reply.status(status).type('text/html; charset=utf-8').send(body.value);

  async function inspectChoices(user: DashboardUser): Promise<Pick<InspectForm, 'providers' | 'entitled'>> {
    const account = await services.accounts.get(user.userId);
    const entitled = account?.inspectProviders ?? null;
    const saved = account?.selectedProviders ?? entitled ?? [];
    const offered = services.inspect.catalog.filter((entry) => entitled?.includes(entry.name) && entry.enabled);
    return { entitled: entitled !== null, providers: offered.map((entry) => ({ name: entry.name, checked: saved.includes(entry.name) })) };
  }

  return async (app) => {
    app.get('/checks/transfer', { schema: { hide: true } }, async (request, reply) =>
      send(reply, 200, transferFormPage(requireUser(request), { chain: 'ETH', txHash: '', error: null })),
    );

    app.post('/checks/transfer', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const fields = transferForm.parse(request.body ?? {});
      try {
        const { chain, txHash } = parseTransferInput({ chain: fields.chain, tx_hash: fields.tx_hash });
        const checkId = deps.ids.newId();
        await submitTransferCheck(services.transfers.deps, { checkId, chain, txHash, userId: user.userId, keyId: DASHBOARD_KEY_ID });
        // Most checks finish within a second: wait a little so that the page shows the verdict, not "running".
        await awaitTransferCheck(services.transfers.deps, checkId, Math.min(services.transfers.syncWaitMs, 5_000));
        return reply.redirect(`/checks/transfer/${checkId}`, 303);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        return send(reply, refused.status, transferFormPage(user, { chain: fields.chain, txHash: fields.tx_hash, error: refused.message }));
      }
    });

    app.get('/inspect', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      return send(reply, 200, inspectFormPage(user, { address: '', network: 'ETH', error: null, ...(await inspectChoices(user)) }));
    });

    app.post('/inspect', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const fields = inspectForm.parse(request.body ?? {});
      const choices = await inspectChoices(user);
      try {
        const account = await services.accounts.get(user.userId);
        if (!account?.inspectProviders) throw fail('consensus_not_entitled', 'your account is not enabled for inspect');
        const { address, network } = parseAddressInput(fields);
        // An unchecked group sends nothing: no outside provider, the own engine alone.
        const requested = fields.providers ?? [];
        const selection = selectProviders({
          requested,
          entitled: account.inspectProviders,
          saved: account.selectedProviders,
          catalog: services.inspect.catalog,
          network,
        });
        const { checkId } = await startInspect(deps, {
          userId: user.userId,
          keyId: DASHBOARD_KEY_ID,
          address,
          network,
          requestedProviders: requested,
          selection,
          idempotencyKey: undefined,
        });
        return reply.redirect(`/checks/inspect/${checkId}`, 303);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        const form = { address: fields.address, network: fields.network, error: refused.message, ...choices };
        return send(reply, refused.status, inspectFormPage(user, form));
      }
    });
  };
}
