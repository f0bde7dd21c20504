import { comparePositions } from '../../domain/ports/event-store.port.js';
import { TRANSFER_CHECK_TIMEOUT_MS } from '../../domain/kyt/transfer-check.events.js';
import type { ProjectionRunner } from '../../processors/projection-runner.js';
import type { Relay } from '../../processors/relay.js';
import type { Services } from '../services.js';
import { systemClock } from '../system/system-clock.js';
import type { Ports } from '../topology/open-ports.js';
import { runs } from '../topology/role.js';
import { commandsOn } from './core.js';
import { processorSet, type Modules, type ProcessorSet } from './features.js';

/** Passes of `whenCaughtUp` at most: processors that kept appending would otherwise hold it forever. */
const MAX_CATCH_UP_PASSES = 20;

interface Running {
  readonly modules: Modules;
  readonly ports: Ports;
  readonly projections: ProjectionRunner;
  /** Kafka's (external mode); null with the embedded bus, which reads the log itself. */
  readonly relay: Relay | null;
  readonly own: ProcessorSet;
  readonly readiness: { ready: boolean };
}

/**
 * Start, catch-up and close of one process, in the order its parts depend on each other; what starts
 * depends on ROLE (infra/topology/role.ts).
 */
export function lifecycleOf(parts: Running): Pick<Services, 'start' | 'whenCaughtUp' | 'close' | 'startProcessorsOn'> {
  const { modules, ports, projections, relay, own, readiness } = parts;
  const { config, core, fullCheck, monitors } = modules;
  return {
    async start() {
      await fullCheck.runningJobs.load(modules.readStore);
      await projections.start();
      await projections.whenCaughtUp();
      await fullCheck.start({ runProcessors: runs(config.ROLE, 'processors') });
      // One relay per deployment (its checkpoint is a compare-and-set): in the all-in-one or projections process.
      if (relay && runs(config.ROLE, 'projections')) await relay.start();
      if (runs(config.ROLE, 'processors')) {
        await own.runner.start();
        // Transfer checks a stopped process left in flight (their requests already committed on the bus),
        // in the background: a hung node must not hold the start. Past the 15-minute cap the reaper has them.
        const now = systemClock.now().getTime();
        const orphans = fullCheck.runningJobs
          .running()
          .filter((job) => job.kind === 'transfer_check' && now - Date.parse(job.requestedAt) < TRANSFER_CHECK_TIMEOUT_MS);
        void own.transfers.resume(orphans.map((job) => job.id));
        monitors.renewals.start();
      }
      readiness.ready = true;
    },
    async whenCaughtUp() {
      // Processors append as they handle (a risk change, an alert case, a delivery attempt): pass again until
      // a pass finds the log where it started, so what they appended is projected too.
      for (let pass = 0; pass < MAX_CATCH_UP_PASSES; pass += 1) {
        const head = await core.store.headPosition();
        await projections.whenCaughtUp();
        await relay?.whenCaughtUp();
        await own.runner.whenCaughtUp();
        await fullCheck.whenCaughtUp();
        const after = await core.store.headPosition();
        if (head === null ? after === null : after !== null && comparePositions(head, after) === 0) return;
      }
    },
    async startProcessorsOn(options) {
      const instance = processorSet(modules, options.bus, commandsOn(core, options.store ?? core.store), true);
      await instance.runner.start();
      return {
        whenCaughtUp: () => instance.runner.whenCaughtUp(),
        async stop() {
          await instance.runner.stop();
          await instance.webhooks.close();
        },
      };
    },
    async close() {
      readiness.ready = false;
      await monitors.renewals.stop();
      await own.runner.stop();
      await fullCheck.close();
      await ports.graph.close();
      await own.webhooks.close();
      await relay?.stop();
      await projections.stop();
      await core.bus.close();
      await ports.processorCheckpoints.close();
      await ports.readStore.close();
      await core.store.close();
    },
  };
}
