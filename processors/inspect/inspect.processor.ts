import type { CommandDeps } from '../../commands/command-deps.js';
import { inspectDecider, pendingProviders } from '../../domain/inspect/inspect.decider.js';
import { inspectStream, inspectStreams } from '../../domain/inspect/inspect.events.js';
import type { ProviderOutcome, RiskProvider } from '../../domain/ports/risk-provider.port.js';
import type { Network } from '../../domain/shared/network.js';
import { asConsequenceOf, firstPerKey } from '../event-scope.js';
import type { Processor } from '../processor.js';
import { topicOfFamily } from '../topics.js';

/**
 * Runs the providers of each requested inspect, all at once, each within its time budget, and records
 * each outcome as it arrives (so a crash loses only the runs in flight). Redelivery is harmless: a
 * finished inspect is skipped and providers with a recorded outcome are not asked again.
 */
export function createInspectProcessor(deps: { providers: readonly RiskProvider[]; providerTimeoutMs: number }): Processor<CommandDeps> {
  const byName = new Map(deps.providers.map((provider) => [provider.name, provider]));

  async function runProvider(name: string, address: string, network: Network): Promise<ProviderOutcome> {
    const provider = byName.get(name);
    // Requested while configured, gone since (a restart with other settings): it cannot run.
    if (!provider) return { ok: false, error: 'provider_unavailable' };
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<ProviderOutcome>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve({ ok: false, error: 'timeout' });
      }, deps.providerTimeoutMs);
    });
    const answered = provider
      .inspect(address, network, abort.signal)
      .catch((): ProviderOutcome => ({ ok: false, error: 'provider_error' }));
    try {
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function runInspect(context: CommandDeps, checkId: string) {
    const stream = inspectStream(checkId);
    const { state } = await context.executor.load(stream, inspectDecider);
    const request = state.request;
    if (!request || state.status !== 'running') return;
    await Promise.all(
      pendingProviders(state).map(async (name) => {
        const started = context.clock.now().getTime();
        const outcome = await runProvider(name, request.address, request.network);
        const finished = context.clock.now();
        await context.executor.execute(
          stream,
          inspectDecider,
          {
            type: 'RecordProviderOutcome',
            provider: name,
            outcome,
            elapsedMs: Math.max(0, finished.getTime() - started),
            at: finished.toISOString(),
          },
          { commandId: `inspect-outcome:${checkId}:${name}` },
        );
      }),
    );
  }

  return {
    name: 'inspect',
    topics: [topicOfFamily('inspect')],
    async handle(batch, context) {
      const checks = firstPerKey(
        batch.filter((e) => e.type === 'InspectRequested'),
        (e) => inspectStreams.idOf(e.streamId),
      );
      await Promise.all([...checks].map(([checkId, event]) => asConsequenceOf(event, () => runInspect(context, checkId))));
    },
  };
}
