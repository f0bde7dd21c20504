import { present } from '../../domain/shared/present.js';
import { addCuratorEntry, retractCuratorEntry } from '../../commands/curate.js';
import { fail } from '../../domain/shared/errors.js';
import { parseNetwork } from '../../domain/shared/network.js';
import { importTransfers } from '../chain/import/import-transfers.js';
import { bulkImportVerb, bulkMemoryMb } from './bulk-import-verb.js';
import { importFromDirectory, importOneSource, syncFromUpstream, type ImportOutcome } from '../sources/import-sources.js';
import { SOURCE_CATALOG } from '../sources/source-catalog.js';
import { httpFetch, parseMirror } from '../sources/upstream-mirror.js';
import { flag, numberFlag, requiredFlag } from './args.js';
import { terminalIo } from './progress.js';
import type { VerbResult, VerbTable } from './verb.js';

/**
 * `data …` verbs: sync from upstream (or SVC_SOURCES_DIR with --from-dir), import one source from a
 * file, show what the index holds, and curate entries. Each import is one append per source.
 */

const finished = (outcomes: readonly ImportOutcome[]): VerbResult => ({
  exitCode: outcomes.some((o) => o.status === 'failed') ? 1 : 0,
  output: { sources: outcomes.map(({ position: _position, ...printed }) => printed) },
});

export const DATA_VERBS: VerbTable<'bus' | 'commands' | 'config' | 'fullCheck' | 'intel' | 'projections'> = {
  async 'data sync'(services, args, io = terminalIo) {
    const progress = io.progress();
    try {
      const dir = args.flags['from-dir'] === true ? services.config.SVC_SOURCES_DIR : flag(args, 'from-dir');
      if (args.flags['from-dir'] !== undefined && !dir) throw fail('bad_request', '--from-dir needs a directory (or SVC_SOURCES_DIR)');
      const outcomes = dir
        ? await importFromDirectory(services.commands, dir, (p) => progress.update('parse', p.filesDone, p.filesTotal, p.file ?? p.source))
        : await syncFromUpstream(services.commands, {
            dataDir: services.config.DATA_DIR,
            fetch: httpFetch(),
            mirror: parseMirror(services.config.SVC_UPSTREAM_MIRROR),
            ...(flag(args, 'source') ? { only: present(flag(args, 'source'), "flag(args, 'source')").split(',') } : {}),
            onProgress: (p) =>
              progress.update(`${p.phase} ${p.source}`, p.filesDone, p.filesTotal, p.phase === 'parse' ? (p.file ?? '') : ''),
          });
      await services.projections.whenCaughtUp();
      return finished(outcomes);
    } finally {
      progress.stop();
    }
  },
  async 'data import'(services, args, io = terminalIo) {
    const [, , source, path] = args.words;
    if (!source || !path)
      throw fail('bad_request', `usage: data import <source> <path>; sources: ${SOURCE_CATALOG.map((e) => e.descriptor.slug).join(', ')}`);
    const progress = io.progress();
    try {
      const outcomes = await importOneSource(services.commands, source, path, (p) =>
        progress.update('parse', p.filesDone, p.filesTotal, p.file ?? ''),
      );
      await services.projections.whenCaughtUp();
      return finished(outcomes);
    } finally {
      progress.stop();
    }
  },
  async 'data import-transfers'(services, args, io = terminalIo) {
    const paths = args.words.slice(2);
    if (paths.length === 0)
      throw fail('bad_request', 'usage: data import-transfers <files...> [--network ETH] [--bulk [--work-dir <dir>] [--memory-mb <MB>]]');
    const network = parseNetwork(flag(args, 'network') ?? 'ETH');
    if (!network) throw fail('bad_request', '--network is one of ETH, BSC, TRON');
    if (args.flags.bulk === true) {
      const memoryMb = bulkMemoryMb(flag(args, 'memory-mb'));
      return bulkImportVerb(services, { paths, network, workDir: flag(args, 'work-dir'), memoryMb }, io);
    }
    const progress = io.progress();
    try {
      const files = await importTransfers({
        paths,
        network,
        graph: services.fullCheck.graph,
        bus: services.bus,
        prices: services.fullCheck.prices,
        onProgress: (p) => progress.update(`import ${p.table}`, p.rows, p.rows, `${p.file}: ${p.transfers} transfers`),
      });
      // Published is not folded yet: wait for the graph pipeline to fold what the import put on the bus.
      await services.fullCheck.whenCaughtUp();
      return {
        exitCode: 0,
        output: {
          files: files.map((f) => ({
            file: f.file,
            table: f.table,
            rows: f.rows,
            transfers: f.transfers,
            resumed_at: f.resumedAt,
            skipped: f.skipped,
          })),
        },
      };
    } finally {
      progress.stop();
    }
  },
  async 'data status'(services) {
    const datasets = services.intel
      .datasets()
      .map((d) => ({ source: d.source, version: d.version, content_hash: d.contentHash, claims: d.claimCount, imported_at: d.importedAt }));
    return { exitCode: 0, output: { snapshot: services.intel.snapshot(), datasets } };
  },
  async 'data curate'(services, args) {
    const action = args.words[2];
    const curator = flag(args, 'curator') ?? process.env.USER ?? 'operator';
    if (action === 'add') {
      const network = parseNetwork(requiredFlag(args, 'network'));
      if (!network) throw fail('bad_request', '--network is one of ETH, BSC, TRON');
      const kind = args.flags.identity === true ? 'identity' : 'risk';
      const added = await addCuratorEntry(services.commands, {
        address: requiredFlag(args, 'address'),
        network,
        kind,
        category: requiredFlag(args, 'category'),
        label: flag(args, 'label') ?? null,
        confidence: numberFlag(args, 'confidence') ?? 90,
        evidenceUrl: requiredFlag(args, 'evidence'),
        curator,
        ...(flag(args, 'id') ? { entryId: present(flag(args, 'id'), "flag(args, 'id')") } : {}),
      });
      await services.projections.whenProcessed(added.position);
      return { exitCode: 0, output: { entry_id: added.entryId, added: added.added } };
    }
    if (action === 'retract') {
      const retracted = await retractCuratorEntry(services.commands, {
        entryId: requiredFlag(args, 'id'),
        reason: requiredFlag(args, 'reason'),
        curator,
      });
      await services.projections.whenProcessed(retracted.position);
      return { exitCode: 0, output: { retracted: retracted.retracted } };
    }
    throw fail(
      'bad_request',
      'usage: data curate add --address A --network N --category SLUG --evidence URL [--label NAME] [--identity] [--confidence 1..100] | data curate retract --id ID --reason TEXT',
    );
  },
};
