import { alertMinLevelOf, setAlertMinLevel } from '../../commands/kyt/kyt-settings.commands.js';
import { ALERT_LEVELS, parseAlertLevel } from '../../domain/kyt/alert-level.js';
import { STANDARD_POLICY } from '../../domain/kyt/standard-policy.js';
import { fail } from '../../domain/shared/errors.js';
import { flag, requiredFlag } from './args.js';
import type { VerbTable } from './verb.js';

/**
 * `kyt alert-level --subgroup <id> [--level Low|Medium|High|Severe]`: shows or sets a subgroup's default
 * `alert_min_level` for webhook subscriptions created from now on (each subscription keeps its own). `kyt policy`: the standard policy's rules, as data.
 */
export const KYT_VERBS: VerbTable<'commands'> = {
  async 'kyt alert-level'(services, args) {
    const subgroupId = requiredFlag(args, 'subgroup');
    const wanted = flag(args, 'level');
    if (wanted === undefined)
      return { exitCode: 0, output: { subgroup_id: subgroupId, alert_min_level: await alertMinLevelOf(services.commands, subgroupId) } };
    const level = parseAlertLevel(wanted);
    if (!level) throw fail('bad_request', `--level is one of ${ALERT_LEVELS.join(', ')}`);
    return {
      exitCode: 0,
      output: { subgroup_id: subgroupId, alert_min_level: await setAlertMinLevel(services.commands, subgroupId, level) },
    };
  },
  async 'kyt policy'() {
    return { exitCode: 0, output: STANDARD_POLICY };
  },
};
