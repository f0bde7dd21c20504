import type { ProjectionRunner } from './projection-runner.js';

/**
 * The runner of the read models (on the projection thread) and the runner of the in-process sinks (on this
 * thread) as the one ProjectionRunner the service waits on. The sinks start first: they resume from the
 * read models' checkpoint, which must not move before they have read it.
 */
export function splitRunner(runners: { readonly sinks: ProjectionRunner; readonly readModels: ProjectionRunner }): ProjectionRunner {
  const { sinks, readModels } = runners;
  return {
    async start() {
      await sinks.start();
      await readModels.start();
    },
    async whenCaughtUp() {
      await Promise.all([sinks.whenCaughtUp(), readModels.whenCaughtUp()]);
    },
    async whenProcessed(position) {
      await Promise.all([sinks.whenProcessed(position), readModels.whenProcessed(position)]);
    },
    // The read models are the ones that lag (a sink is fed as soon as an event is appended).
    progress: () => readModels.progress(),
    // Each runner reads the log on its own thread, at once: how much of it a start read is the larger count.
    eventsRead: () => Math.max(sinks.eventsRead(), readModels.eventsRead()),
    async stop() {
      await readModels.stop();
      await sinks.stop();
    },
  };
}
