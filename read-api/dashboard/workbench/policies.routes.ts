import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CaseViewer } from '../../../commands/alert-cases.commands.js';
import { fail } from '../../../domain/shared/errors.js';
import { policyActions } from '../../routes/policies-actions.js';
import { activatePolicyBody, backtestBody, createPolicyBody } from '../../routes/policies-schemas.js';
import type { AppServices } from '../../services.js';
import { RequestValidationError } from '../../validation.js';
import { requireUser, type DashboardUser } from '../session-auth.js';
import { backtestPage } from './backtest.page.js';
import { policiesPage, policyHref, type NewDraftForm } from './policies.page.js';
import { draftEditorPage } from './policy-editor.page.js';
import {
  checkDraftForm,
  detailRefusals,
  draftErrorsOf,
  errorsOf,
  formText,
  readDraftForm,
  rowOfRule,
  zodRefusals,
  type DraftForm,
  type FieldErrors,
  type Refusal,
} from './policy-form.js';
import { policyPage, type ActivateForm, type BacktestForm } from './policy.page.js';

/**
 * Policies in the workbench: the subgroup's list with a form for a new draft, a policy with its history,
 * the draft editor (each refusal next to its field), activation, and backtests with their job page. The
 * same actions, schemas and subgroup scope as /v2/policies; a bad entry shows the form again with 422.
 */

const pageQuery = z.object({
  subgroup_id: z.string().max(100).optional().catch(undefined),
  version: z.string().max(20).optional().catch(undefined),
});
const idParam = z.object({ id: z.string().max(100) });
const backtestParam = z.object({ backtest_id: z.string().max(100) });
/** A path id the API would refuse names nothing here: 404, as for an id of another subgroup. */
function pathParams<T>(schema: z.ZodType<T>, request: FastifyRequest): T {
  const parsed = schema.safeParse(request.params);
  if (!parsed.success) throw fail('not_found', 'no such policy');
  return parsed.data;
}
/** How long the backtest form waits for a short report before showing the job page (which then shows it at once). */
const BACKTEST_WAIT_MS = 1_000;
const DAY_MS = 86_400_000;

type Actions = ReturnType<typeof policyActions>;
type Fields = Record<string, unknown>;
interface Ctx {
  readonly services: AppServices;
  readonly actions: Actions;
}
interface Caller {
  readonly user: DashboardUser;
  readonly viewer: CaseViewer;
  readonly subgroupId: string | undefined;
}

const html = (reply: FastifyReply, status: number, body: { value: string }) =>
  reply.status(status).type('text/html; charset=utf-8').send(body.value);
const fieldsOf = (request: FastifyRequest): Fields =>
  typeof request.body === 'object' && request.body !== null ? (request.body as Fields) : {};
/** An optional form field: left out when empty, as the API's optional fields are. */
const optional = (fields: Fields, name: string) => {
  const value = formText(fields, name).trim();
  return value === '' ? {} : { [name]: value };
};

async function callerOf(ctx: Ctx, request: FastifyRequest): Promise<Caller> {
  const user = requireUser(request);
  const { subgroup_id } = pageQuery.parse(request.query ?? {});
  return { user, viewer: await ctx.actions.viewerOf(user.userId), subgroupId: subgroup_id };
}

/** Runs a command; its 422 (the decider's refusal, or the schema's) becomes the refusals to show. */
async function refusalsOf(work: () => Promise<unknown>): Promise<Refusal[] | null> {
  try {
    await work();
    return null;
  } catch (error) {
    if (error instanceof RequestValidationError) return detailRefusals(error.detail);
    throw error;
  }
}

async function listPage(ctx: Ctx, caller: Caller, form: NewDraftForm) {
  const list = await ctx.actions.list(caller.viewer, { subgroup_id: caller.subgroupId });
  return policiesPage(caller.user, { list, subgroupIds: caller.viewer.subgroupIds, form });
}

async function createDraft(ctx: Ctx, request: FastifyRequest, reply: FastifyReply) {
  const caller = await callerOf(ctx, request);
  const fields = fieldsOf(request);
  const form = { name: formText(fields, 'name'), reason: formText(fields, 'reason'), basedOn: formText(fields, 'based_on') };
  const parsed = createPolicyBody.safeParse({
    ...(caller.subgroupId ? { subgroup_id: caller.subgroupId } : {}),
    name: form.name.trim(),
    reason: form.reason,
    ...(form.basedOn ? { based_on: { policy_id: form.basedOn } } : {}),
  });
  let created: { id: string; subgroup_id: string } | null = null;
  const refusals = parsed.success
    ? await refusalsOf(async () => (created = await ctx.actions.create(caller.viewer, parsed.data)))
    : zodRefusals(parsed.error.issues);
  if (created !== null) {
    const { id, subgroup_id } = created;
    return reply.redirect(policyHref(id, subgroup_id, '/edit'), 303);
  }
  const errors = errorsOf(refusals ?? [], new Set(['name', 'reason', 'based_on']));
  return html(reply, 422, await listPage(ctx, caller, { ...form, errors }));
}

interface PolicyForms {
  readonly activate?: ActivateForm;
  readonly backtest?: BacktestForm;
}

async function policyView(ctx: Ctx, caller: Caller, id: string, version: string | undefined, forms: PolicyForms) {
  const detail = await ctx.actions.get(caller.viewer, id, { subgroup_id: caller.subgroupId, version });
  const { history } = await ctx.actions.history(caller.viewer, id, { subgroup_id: detail.subgroup_id });
  const today = ctx.services.commands.clock.now().getTime();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return policyPage(caller.user, {
    detail,
    history,
    activate: forms.activate ?? { reason: '', version: '', errors: {} },
    backtest: forms.backtest ?? { from: day(today - 30 * DAY_MS), to: day(today + DAY_MS), version: '', errors: {} },
  });
}

async function activate(ctx: Ctx, request: FastifyRequest, reply: FastifyReply) {
  const caller = await callerOf(ctx, request);
  const { id } = pathParams(idParam, request);
  const fields = fieldsOf(request);
  const parsed = activatePolicyBody.safeParse({
    ...(caller.subgroupId ? { subgroup_id: caller.subgroupId } : {}),
    reason: formText(fields, 'reason'),
    ...optional(fields, 'version'),
  });
  let activated: { id: string; subgroup_id: string } | null = null;
  const refusals = parsed.success
    ? await refusalsOf(async () => (activated = await ctx.actions.activate(caller.viewer, id, parsed.data)))
    : zodRefusals(parsed.error.issues);
  if (activated !== null) {
    const { id: policyId, subgroup_id } = activated;
    return reply.redirect(policyHref(policyId, subgroup_id), 303);
  }
  const form = {
    reason: formText(fields, 'reason'),
    version: formText(fields, 'version'),
    errors: errorsOf(refusals ?? [], new Set(['reason', 'version'])),
  };
  return html(reply, 422, await policyView(ctx, caller, id, undefined, { activate: form }));
}

async function backtest(ctx: Ctx, request: FastifyRequest, reply: FastifyReply) {
  const caller = await callerOf(ctx, request);
  const { id } = pathParams(idParam, request);
  const fields = fieldsOf(request);
  const parsed = backtestBody.safeParse({
    ...(caller.subgroupId ? { subgroup_id: caller.subgroupId } : {}),
    ...optional(fields, 'from'),
    ...optional(fields, 'to'),
    ...optional(fields, 'version'),
    wait_ms: BACKTEST_WAIT_MS,
  });
  let started: string | null = null;
  const refusals = parsed.success
    ? await refusalsOf(async () => (started = (await ctx.actions.backtest(caller.viewer, id, parsed.data)).body.backtest_id))
    : zodRefusals(parsed.error.issues);
  if (started !== null) return reply.redirect(`/policies/backtests/${started}`, 303);
  const errors: FieldErrors = errorsOf(refusals ?? [], new Set(['from', 'to', 'version']));
  const form = { from: formText(fields, 'from'), to: formText(fields, 'to'), version: formText(fields, 'version'), errors };
  return html(reply, 422, await policyView(ctx, caller, id, undefined, { backtest: form }));
}

async function editorForm(ctx: Ctx, caller: Caller, id: string): Promise<{ form: DraftForm; fromDraft: boolean; subgroupId: string }> {
  if (id.toLowerCase() === 'standard') throw fail('bad_request', 'the standard policy is a template: create a draft from it');
  const detail = await ctx.actions.get(caller.viewer, id, { subgroup_id: caller.subgroupId, version: undefined });
  const rules = detail.draft?.rules ?? detail.version?.rules ?? [];
  const name = detail.draft?.name ?? detail.version?.name ?? detail.name;
  return { form: { name, reason: '', rows: rules.map(rowOfRule) }, fromDraft: detail.draft !== null, subgroupId: detail.subgroup_id };
}

async function saveDraft(ctx: Ctx, request: FastifyRequest, reply: FastifyReply) {
  const caller = await callerOf(ctx, request);
  const { id } = pathParams(idParam, request);
  const current = await editorForm(ctx, caller, id); // not_found outside the viewer's subgroups, before anything else
  const form = readDraftForm(fieldsOf(request));
  const checked = checkDraftForm(form);
  let errors = 'errors' in checked ? checked.errors : null;
  if ('body' in checked) {
    const refused = await refusalsOf(() => ctx.actions.edit(caller.viewer, id, checked.body));
    if (refused === null) return reply.redirect(policyHref(id.toLowerCase(), current.subgroupId), 303);
    errors = draftErrorsOf(refused);
  }
  const view = { policyId: id.toLowerCase(), subgroupId: current.subgroupId, form, errors: errors ?? {}, fromDraft: current.fromDraft };
  return html(reply, 422, draftEditorPage(caller.user, view));
}

/** The workbench's policy pages and their forms (registered in workbench.routes.ts). */
export function policyDashboardRoutes(services: AppServices): FastifyPluginAsync {
  const ctx: Ctx = { services, actions: policyActions(services) };
  const hidden = { schema: { hide: true } };
  return async (app) => {
    app.get('/policies', hidden, async (request, reply) => {
      const caller = await callerOf(ctx, request);
      return html(reply, 200, await listPage(ctx, caller, { name: '', reason: '', basedOn: 'standard', errors: {} }));
    });
    app.post('/policies', hidden, (request, reply) => createDraft(ctx, request, reply));
    app.get('/policies/:id', hidden, async (request, reply) => {
      const caller = await callerOf(ctx, request);
      const { id } = pathParams(idParam, request);
      return html(reply, 200, await policyView(ctx, caller, id, pageQuery.parse(request.query ?? {}).version, {}));
    });
    app.get('/policies/:id/edit', hidden, async (request, reply) => {
      const caller = await callerOf(ctx, request);
      const { id } = pathParams(idParam, request);
      const { form, fromDraft, subgroupId } = await editorForm(ctx, caller, id);
      return html(reply, 200, draftEditorPage(caller.user, { policyId: id.toLowerCase(), subgroupId, form, errors: {}, fromDraft }));
    });
    app.post('/policies/:id/edit', hidden, (request, reply) => saveDraft(ctx, request, reply));
    app.post('/policies/:id/activate', hidden, (request, reply) => activate(ctx, request, reply));
    app.post('/policies/:id/backtest', hidden, (request, reply) => backtest(ctx, request, reply));
    app.get('/policies/backtests/:backtest_id', hidden, async (request, reply) => {
      const caller = await callerOf(ctx, request);
      const { backtest_id } = pathParams(backtestParam, request);
      const backtest = await ctx.actions.backtestResult(caller.viewer, backtest_id);
      const policy = await ctx.actions.get(caller.viewer, backtest.policy_id, { subgroup_id: backtest.subgroup_id, version: undefined });
      return html(reply, 200, backtestPage(caller.user, backtest, policy.name));
    });
  };
}
