import { fail } from '../../domain/shared/errors.js';
import { rebuildProjection } from '../../processors/projection-rebuild.js';
import { PROJECTIONS } from '../bootstrap.js';
import { terminalIo } from './progress.js';
import type { VerbTable } from './verb.js';

/**
 * `projections list` and `projections rebuild <name>`: the read models this build folds, and rebuilding
 * one from `$all` (a new projection version, a repaired evolve, a damaged collection) while the service
 * keeps answering from the old documents until the rebuilt ones take over.
 */

const percent = (position: bigint, head: bigint): number => (head <= 0n ? 100 : Math.min(100, Number((position * 100n) / head)));

export const PROJECTION_VERBS: VerbTable<'commands' | 'config' | 'projections' | 'readStore' | 'store'> = {
  async 'projections list'(services) {
    const projections = await Promise.all(
      PROJECTIONS.map(async (p) => ({
        name: p.name,
        collection: p.collection,
        handles: p.handles,
        documents: await services.readStore.collection(p.collection, p.indexes).count({}),
      })),
    );
    return { exitCode: 0, output: { read_store: services.config.READ_STORE, projections } };
  },
  async 'projections rebuild'(services, args, io = terminalIo) {
    const name = args.words[2];
    const projection = PROJECTIONS.find((p) => p.name === name);
    if (!projection)
      throw fail(
        'not_found',
        `${name ? `no projection "${name}"` : 'usage: projections rebuild <name>'}; projections: ${PROJECTIONS.map((p) => p.name).join(', ')}`,
      );
    const progress = io.progress();
    try {
      const report = await rebuildProjection(
        {
          store: services.store,
          readStore: services.readStore,
          commands: services.commands,
          whenProjected: (position) => services.projections.whenProcessed(position),
        },
        projection,
        (p) =>
          progress.update(
            `${p.phase} ${projection.name} (% of the log)`,
            percent(p.position, p.head),
            100,
            `${p.events} events read, ${p.applied} applied`,
          ),
      );
      return { exitCode: report.failed === 0 ? 0 : 1, output: { read_store: services.config.READ_STORE, ...report } };
    } finally {
      progress.stop();
    }
  },
};
