import type { Services } from '../bootstrap.js';
import type { ParsedArgs } from './args.js';
import type { VerbIo } from './progress.js';

export interface VerbResult {
  readonly exitCode: number;
  readonly output: unknown;
  /** Printed one per line (JSON Lines) after `output` goes to stderr: the batch screen's verdicts. */
  readonly jsonLines?: readonly unknown[];
}

/**
 * An operator's verb and the parts of the service it uses (`K`), no more: a verb's dependencies show in its
 * table's type, and a verb that reaches for another part does not compile.
 */
export type Verb<K extends keyof Services> = (services: Pick<Services, K>, args: ParsedArgs, io?: VerbIo) => Promise<VerbResult>;

/** The verbs of one area, sharing the parts of the service they use. */
export type VerbTable<K extends keyof Services> = Record<string, Verb<K>>;
