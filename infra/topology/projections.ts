import { hostname } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { createProjectionRunner, type EventSink, type ProjectionRunner } from '../../processors/projection-runner.js';
import { historyPrefixesOf } from '../../processors/sink-history.js';
import { createSinkRunner } from '../../processors/sink-runner.js';
import { splitRunner } from '../../processors/split-runner.js';
import type { Config } from '../config.js';
import { startProjectionThread } from '../embedded/projection-thread.js';
import { PROCESSOR_PROJECTIONS, PROJECTIONS } from '../read-models.js';
import { storeDir } from './embedded.js';
import type { Ports } from './open-ports.js';
import { foldsAllReadModels, projectionCheckpointName } from './role.js';

/**
 * What folds the read models and the in-memory sinks of this process. The embedded default folds its LMDB
 * read models on a thread of their own, off the one that answers; any other read store is folded here.
 */
export function createReadModelRunner(input: {
  config: Config;
  ports: Pick<Ports, 'fileStore' | 'lmdbStore'>;
  store: EventStore;
  readStore: ReadStore;
  sinks: readonly EventSink[];
  onError: (error: unknown, event?: unknown, where?: string) => void;
}): ProjectionRunner {
  const { config, ports, store, readStore, sinks, onError } = input;
  const name = projectionCheckpointName(config.ROLE, config.INSTANCE_ID ?? hostname());
  const foldsAll = foldsAllReadModels(config.ROLE);
  if (ports.fileStore && ports.lmdbStore && foldsAll)
    return splitRunner({
      sinks: createSinkRunner({ store, readStore, sinks, checkpoint: name, onError }),
      readModels: startProjectionThread({
        store: ports.fileStore,
        readStore: ports.lmdbStore,
        data: {
          storeDir: storeDir(config),
          readModelsDir: join(config.DATA_DIR, 'read-models'),
          fsync: config.SVC_FSYNC === '1',
          name,
          sinkStreams: historyPrefixesOf(sinks),
        },
        onError,
      }),
    });
  // A processors-only process folds only what its processors read (webhook subscriptions, running jobs, monitors) and its indexes.
  return createProjectionRunner({ store, readStore, name, projections: foldsAll ? PROJECTIONS : PROCESSOR_PROJECTIONS, sinks, onError });
}
