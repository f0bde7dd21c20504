import { caseViewerOf, type CaseViewer } from '../../commands/alert-cases.commands.js';
import {
  activatePolicy,
  createPolicyDraft,
  editPolicyDraft,
  locatePolicy,
  policyBookOf,
  subgroupFor,
} from '../../commands/policies/policies.commands.js';
import { hasCode } from '../../domain/shared/errors.js';
import type { AppServices } from '../services.js';
import { RequestValidationError } from '../validation.js';
import type { ActivatePolicyBody, BacktestBody, CreatePolicyBody, EditPolicyBody } from './policies-schemas.js';
import { backtestOut, historyEntry, policyDetail, policyList, ruleIn } from './policies-views.js';
import { activePolicyOf, policyOf, versionOf } from '../../domain/policies/policy-book.decider.js';
import { TAXONOMY } from '../../domain/intel/taxonomy.js';
import type { Policy } from '../../domain/kyt/policy.types.js';
import { fail } from '../../domain/shared/errors.js';

/** The decider names fields as `rules.3.min_usd`: the 422's loc is that path under `body`, indices as numbers. */
const locOf = (field: string): (string | number)[] => [
  'body',
  ...field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
];

async function asBodyValidation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (hasCode(error, 'validation_error')) {
      const field = typeof error.details?.field === 'string' ? error.details.field : 'body';
      throw new RequestValidationError([{ loc: locOf(field), msg: error.message, type: 'value_error' }]);
    }
    throw error;
  }
}

/** What /v2/policies does once the caller is known: a policy outside the caller's subgroups is not_found. */
export function policyActions(services: AppServices) {
  const deps = services.commands;
  // The book is read from the subgroup's stream itself, so the answer shows the change just made.
  const detailOf = async (policyId: string, subgroupId: string) =>
    policyDetail(await policyBookOf(deps, subgroupId), subgroupId, policyId, undefined);
  return {
    viewerOf: (userId: string) => caseViewerOf(deps, userId),

    async list(viewer: CaseViewer, query: { subgroup_id?: string | undefined }) {
      const subgroupId = subgroupFor(viewer, query.subgroup_id);
      return policyList(await policyBookOf(deps, subgroupId), subgroupId);
    },

    async get(viewer: CaseViewer, policyId: string, query: { subgroup_id?: string | undefined; version?: string | undefined }) {
      const id = policyId.toLowerCase();
      const { subgroupId, book } = await locatePolicy(deps, viewer, id, query.subgroup_id);
      return policyDetail(book, subgroupId, id, query.version);
    },

    async create(viewer: CaseViewer, body: CreatePolicyBody) {
      const subgroupId = subgroupFor(viewer, body.subgroup_id);
      const basedOn = body.based_on
        ? {
            policyId: body.based_on.policy_id.toLowerCase(),
            ...(body.based_on.version !== undefined ? { version: body.based_on.version } : {}),
          }
        : undefined;
      const { policyId } = await asBodyValidation(() =>
        createPolicyDraft(deps, viewer, subgroupId, {
          name: body.name,
          reason: body.reason,
          ...(basedOn ? { basedOn } : {}),
          ...(body.rules ? { rules: body.rules.map(ruleIn) } : {}),
        }),
      );
      return detailOf(policyId, subgroupId);
    },

    async edit(viewer: CaseViewer, policyId: string, body: EditPolicyBody) {
      const id = policyId.toLowerCase();
      const { subgroupId } = await locatePolicy(deps, viewer, id, undefined);
      if (id === 'standard')
        throw new RequestValidationError([
          { loc: ['path', 'id'], msg: 'the standard policy is a template: create a draft from it', type: 'value_error' },
        ]);
      await asBodyValidation(() =>
        editPolicyDraft(deps, viewer, subgroupId, id, {
          reason: body.reason,
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.rules ? { rules: body.rules.map(ruleIn) } : {}),
        }),
      );
      return detailOf(id, subgroupId);
    },

    async activate(viewer: CaseViewer, policyId: string, body: ActivatePolicyBody) {
      const id = policyId.toLowerCase();
      const { subgroupId } = await locatePolicy(deps, viewer, id, body.subgroup_id);
      await asBodyValidation(() =>
        activatePolicy(deps, viewer, subgroupId, id, {
          reason: body.reason,
          ...(body.version !== undefined ? { version: body.version } : {}),
        }),
      );
      return detailOf(id, subgroupId);
    },

    /** Starts a backtest and waits up to `wait_ms` for its report: 200 with it, else 202 with the result URL. */
    async backtest(viewer: CaseViewer, policyId: string, body: BacktestBody) {
      const id = policyId.toLowerCase();
      const { subgroupId, book } = await locatePolicy(deps, viewer, id, body.subgroup_id);
      const draft = body.version === undefined ? policyOf(book, id)?.draft : null;
      const chosen = draft ? { name: draft.name, version: 'draft', rules: draft.rules } : versionOf(book, id, body.version);
      if (!chosen)
        throw new RequestValidationError([{ loc: ['body', 'version'], msg: 'no such version of the policy', type: 'value_error' }]);
      const candidate: Policy = { name: chosen.name, version: chosen.version, taxonomyVersion: TAXONOMY.version, rules: chosen.rules };
      const to = body.to ? new Date(body.to) : deps.clock.now();
      const from = body.from ? new Date(body.from) : new Date(to.getTime() - 30 * 86_400_000);
      if (from.getTime() >= to.getTime())
        throw new RequestValidationError([{ loc: ['body', 'from'], msg: 'from must be before to', type: 'value_error' }]);
      const job = services.policies.backtests.start({
        subgroupId,
        policyId: id,
        candidate,
        baseline: activePolicyOf(book),
        from: from.toISOString(),
        to: to.toISOString(),
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([job.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, body.wait_ms)))]);
      clearTimeout(timer);
      return { status: job.status === 'running' ? 202 : 200, body: backtestOut(job) };
    },

    async backtestResult(viewer: CaseViewer, backtestId: string) {
      const job = services.policies.backtests.get(backtestId.toLowerCase());
      if (!job || !viewer.subgroupIds.includes(job.request.subgroupId)) throw fail('not_found', 'no such backtest');
      return backtestOut(job);
    },

    async history(viewer: CaseViewer, policyId: string, query: { subgroup_id?: string | undefined }) {
      const id = policyId.toLowerCase();
      const { subgroupId } = await locatePolicy(deps, viewer, id, query.subgroup_id);
      const events = await services.policies.history(subgroupId, id);
      return { policy_id: id, subgroup_id: subgroupId, history: events.map(historyEntry) };
    },
  };
}
