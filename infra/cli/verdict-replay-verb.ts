import { replayVerdict } from '../../commands/replay/replay-verdict.js';
import { fail } from '../../domain/shared/errors.js';
import { presentVerdictReplay } from '../../read-api/presenters/verdict-replay.presenter.js';
import { findStoredVerdict } from '../../read-api/routes/stored-verdict-lookup.js';
import { flag } from './args.js';
import { terminalIo } from './progress.js';
import type { VerbTable } from './verb.js';

/**
 * `verdict replay <id> --user <id> [--today]`, for auditors: the verdict recomputed from the log as of its
 * time (docs/ARCHITECTURE.md#verdict-replay), the same answer as POST /v2/verdicts/{id}/replay, with a line
 * of progress on stderr per step of a long replay. Exit 0 when identical as of its time, 1 when it differs.
 */
export const VERDICT_REPLAY_VERBS: VerbTable<'app'> = {
  async 'verdict replay'(services, args, io = terminalIo) {
    const id = args.words[2];
    const userId = flag(args, 'user');
    if (!id) throw fail('bad_request', 'verdict replay needs the verdict id');
    if (!userId) throw fail('bad_request', 'verdict replay needs --user <id>: the account the verdict was given to');
    const { deps, timeoutMs } = services.app.replay;
    const found = await findStoredVerdict({ history: services.app.alerts.history, log: deps.log }, userId, id);
    if (!found) throw fail('not_found', 'no such verdict for this account');
    const progress = io.progress();
    let step = 0;
    try {
      const replay = await replayVerdict(deps, found.ref, {
        today: args.flags.today === true,
        timeoutMs,
        onProgress: (line) => progress.update(line, ++step, step, ''),
      });
      return { exitCode: replay.asOf.identical ? 0 : 1, output: presentVerdictReplay(replay).body };
    } finally {
      progress.stop();
    }
  },
};
