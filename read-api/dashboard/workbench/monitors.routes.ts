import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { createMonitor, deleteMonitor } from '../../../commands/monitors.commands.js';
import { fail, isServiceError } from '../../../domain/shared/errors.js';
import { present } from '../../../domain/shared/present.js';
import { parseAddressInput } from '../../routes/address-input.js';
import type { AppServices, MonitorApi } from '../../services.js';
import { RequestValidationError } from '../../validation.js';
import { requireUser, type DashboardUser } from '../session-auth.js';
import { monitorPage, monitorsPage, type MonitorForm } from './monitors.page.js';
import { DASHBOARD_KEY_ID } from './screen.routes.js';

const PAGE_SIZE = 25;
const listQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) });
const idParams = z.object({ id: z.string().max(100) });
const monitorForm = z.object({
  csrf: z.string().optional(),
  address: z.string().max(120).default(''),
  network: z.string().max(20).default('ETH'),
  reference: z.string().max(200).default(''),
});

function refusal(error: unknown): { status: number; message: string } | null {
  if (error instanceof RequestValidationError) return { status: 422, message: error.detail.map((d) => d.msg).join('; ') };
  if (!isServiceError(error)) return null;
  if (error.code === 'bad_request' || error.code === 'unsupported_network') return { status: 400, message: error.message };
  if (error.code === 'insufficient_funds' || error.code === 'quota_exceeded' || error.code === 'monthly_cap_exceeded')
    return { status: 402, message: `Not watched: ${error.message}. Nothing was charged.` };
  return null;
}

/**
 * Monitors in the workbench: the list with a form to watch an address (the command and the charge of
 * POST /v2/monitors), one monitor with its history of changes, and stopping it (DELETE /api/monitors/{id}).
 */
export function monitorDashboardRoutes(services: AppServices, monitors: MonitorApi): FastifyPluginAsync {
  const send = (reply: FastifyReply, status: number, body: { value: string }) =>
    reply.status(status).type('text/html; charset=utf-8').send(body.value);

  async function listPage(user: DashboardUser, page: number, form: MonitorForm) {
    const found = await monitors.repository.page(user.userId, { page, pageSize: PAGE_SIZE });
    return monitorsPage(user, {
      rows: found.rows,
      total: found.total,
      page,
      totalPages: Math.max(1, Math.ceil(found.total / PAGE_SIZE)),
      form,
    });
  }

  async function own(userId: string, monitorId: string) {
    const doc = await monitors.repository.get(monitorId.toLowerCase());
    if (doc === null || doc.user_id !== userId) throw fail('not_found', 'no such monitor');
    return doc;
  }

  return async (app) => {
    app.get('/monitors', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { page } = listQuery.parse(request.query ?? {});
      return send(reply, 200, await listPage(user, page, { address: '', network: 'ETH', reference: '', error: null }));
    });

    app.post('/monitors', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const fields = monitorForm.parse(request.body ?? {});
      try {
        const { address, network } = parseAddressInput(fields);
        const created = await createMonitor(services.commands, {
          userId: user.userId,
          keyId: DASHBOARD_KEY_ID,
          callId: services.commands.ids.newId(),
          address,
          network,
          reference: fields.reference.trim() === '' ? null : fields.reference.trim(),
        });
        await services.whenProjected(created.position);
        return reply.redirect(`/monitors/${present(created.state.monitorId, 'a watched monitor’s id')}`, 303);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        return send(reply, refused.status, await listPage(user, 1, { ...fields, error: refused.message }));
      }
    });

    app.get('/monitors/:id', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { id } = idParams.parse(request.params);
      return send(reply, 200, monitorPage(user, await own(user.userId, id)));
    });

    app.delete('/api/monitors/:id', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { id } = idParams.parse(request.params);
      await own(user.userId, id);
      await services.whenProjected(await deleteMonitor(services.commands, { userId: user.userId, monitorId: id.toLowerCase() }));
      return reply.status(204).send();
    });
  };
}
