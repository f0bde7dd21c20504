import { assessScreenVerdict } from '../../domain/inspect/engine-assessment.js';
import { synthesizeAudit, type AnsweredProvider } from '../../domain/inspect/final-audit.js';
import { inspectDecider, type InspectState, type RecordedOutcome } from '../../domain/inspect/inspect.decider.js';
import { inspectStream } from '../../domain/inspect/inspect.events.js';
import { OWN_ENGINE } from '../../domain/inspect/provider-selection.js';
import { addressVerdict } from '../../domain/intel/address-verdict.js';
import type { ScreenVerdict } from '../../domain/intel/screen-verdict.schema.js';
import { screenVerdictOfRecorded, type ScreenVerdictV1 } from '../../domain/intel/screen-verdict.v1.js';
import { sourceRowsOf, type RecordedAnswer } from '../../domain/replay/verdict-replay.js';
import { fail } from '../../domain/shared/errors.js';
import type { CommandDeps } from '../command-deps.js';
import { clockAt, type ReplayPlan } from './replay-plan.js';

type Answered = Extract<RecordedOutcome, { ok: true }>;

/** The own engine's answer, as recorded: its light-screen verdict (null when it failed then; read as the domain's when kept in the body's words). */
function ownEngineVerdict(state: InspectState): ScreenVerdict | null {
  const own = state.outcomes.find((outcome): outcome is Answered => outcome.provider === OWN_ENGINE && outcome.ok);
  return own ? screenVerdictOfRecorded(own.raw as ScreenVerdict | ScreenVerdictV1) : null;
}

/** The outside providers in run order, each as it was recorded: answered or failed, never asked again. */
function outsideAnswers(state: InspectState): RecordedAnswer[] {
  const providers = state.request?.providers ?? [];
  return providers
    .filter((run) => run.name !== OWN_ENGINE)
    .map((run) => ({
      provider: run.name,
      kind: run.kind,
      outcome: state.outcomes.some((o) => o.provider === run.name && o.ok) ? ('answered' as const) : ('failed' as const),
    }));
}

/** The audit again, in run order (as the decider synthesized it): the own engine's reading is the recomputed one. */
function auditWith(state: InspectState, engine: ScreenVerdict | null) {
  const providers = state.request?.providers ?? [];
  const answered: AnsweredProvider[] = providers.flatMap(({ name }) => {
    if (name === OWN_ENGINE && engine) return [{ provider: name, assessment: assessScreenVerdict(engine) }];
    const found = state.outcomes.find((o): o is Answered => o.provider === name && o.ok);
    return found ? [{ provider: name, assessment: found.assessment }] : [];
  });
  return synthesizeAudit(answered, state.outcomes.length - answered.length);
}

/** Stored verdicts went through JSON: what is compared is what a reader of the log sees (no undefined keys). */
const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * An inspect is recomputed from its recorded provider answers (docs/ARCHITECTURE.md#verdict-replay): the
 * outside providers' readings as recorded (they are not asked again), the own engine's light screen again
 * from the intelligence as of its answer, and the final audit synthesized from both, as the decider did.
 */
export async function inspectReplayPlan(deps: Pick<CommandDeps, 'executor'>, checkId: string): Promise<ReplayPlan> {
  const stream = inspectStream(checkId);
  const { state } = await deps.executor.load(stream, inspectDecider);
  const { request, audit, finishedAt } = state;
  if (state.status !== 'completed' || !request || !audit || !finishedAt) throw fail('not_found', 'no such verdict');
  const engine = ownEngineVerdict(state);
  const target = { address: request.address, network: request.network };
  const recordedAnswers = outsideAnswers(state);
  const isOwnAnswer = (type: string, data: unknown) =>
    engine ? type === 'ProviderAnswered' && (data as { provider?: unknown }).provider === OWN_ENGINE : type === 'InspectCompleted';
  return {
    kind: 'inspect',
    verdictId: checkId,
    madeAt: finishedAt,
    given: { audit, own_engine: engine },
    addresses: [request.address],
    // As of the own engine's answer: intelligence imported while the outside providers were asked came after it.
    verdictEvent: { streamPrefix: stream, isVerdict: (event) => event.streamId === stream && isOwnAnswer(event.type, event.data) },
    recorded: [
      'the outside providers’ answers replayed as recorded (recorded_answers): they are not asked again',
      ...(engine ? [] : ['the own engine failed then: it takes no part in the replay either']),
    ],
    recordedAnswers,
    async recompute(intel, today) {
      const clock = today ?? clockAt(engine?.coverage.sanctions?.at ?? finishedAt);
      const recomputed = engine ? asStored(await addressVerdict({ intel, clock }, target)) : null;
      const match = recomputed?.verdict.sanctionsMatch;
      return {
        value: { audit: auditWith(state, recomputed), own_engine: recomputed },
        sources: sourceRowsOf(recomputed?.coverage.dataVersions.sources ?? []),
        sanctions: match ? [match] : [],
      };
    },
  };
}
