import type { Database } from 'lmdb';
import type { StreamView } from './append-decision.js';
import type { StreamEntry } from './store-environment.js';

/** Where an event lives in `$all`: its append's commit and its index within the append. */
export interface EventLocation {
  readonly revision: number;
  readonly commit: number;
  readonly prepare: number;
}

interface Covering {
  readonly first: number;
  readonly entry: StreamEntry;
}

/** How many of a stream's latest events an `any` append's ids are looked for in (see revisionOfId). */
export const ANY_RETRY_WINDOW = 1_000;

const countOf = (entry: StreamEntry) => entry.length - 1;
const idsOf = (entry: StreamEntry): readonly string[] => entry.slice(1) as string[];
const covers = ({ first, entry }: Covering, revision: number) => revision >= first && revision < first + countOf(entry);

/**
 * The stream index: one entry per append, not per event (an append of a batch of charges is one entry). It
 * is written in the transaction of the events it points to, so it never has to be reconciled with them.
 * Inside a write transaction its reads see that transaction's writes: the append rule is decided there.
 */
export class LmdbStreamIndex {
  constructor(private readonly streams: Database<StreamEntry, [string, number]>) {}

  /** The revision of the stream's last event, -1 for none. */
  revision(stream: string): number {
    const last = this.appendAtOrBefore(stream, Number.MAX_SAFE_INTEGER);
    return last === undefined ? -1 : last.first + countOf(last.entry) - 1;
  }

  view(stream: string): StreamView {
    return {
      revision: BigInt(this.revision(stream)),
      idAt: (revision) => {
        const found = revision < 0n ? undefined : this.covering(stream, Number(revision));
        return found && idsOf(found.entry)[Number(revision) - found.first];
      },
      revisionOfId: (id) => {
        const revision = this.revisionOfId(stream, id);
        return revision === undefined ? undefined : BigInt(revision);
      },
    };
  }

  add(stream: string, first: number, commit: number, ids: readonly string[]): void {
    this.streams.putSync([stream, first], [commit, ...ids]);
  }

  location(stream: string, revision: number): EventLocation | undefined {
    const found = this.covering(stream, revision);
    return found && { revision, commit: found.entry[0], prepare: revision - found.first };
  }

  /** Up to `limit` of the stream's events from revision `from` (inclusive), in the given direction. */
  locations(stream: string, from: number, direction: 'forwards' | 'backwards', limit: number): EventLocation[] {
    const backwards = direction === 'backwards';
    const start = this.covering(stream, from)?.first ?? (backwards ? -1 : from);
    if (start < 0) return [];
    const range = this.streams.getRange({
      start: [stream, start],
      end: [stream, backwards ? -1 : Number.MAX_SAFE_INTEGER],
      reverse: backwards,
    });
    const out: EventLocation[] = [];
    for (const { key, value } of range) {
      const count = countOf(value);
      for (let i = 0; i < count && out.length < limit; i += 1) {
        const prepare = backwards ? count - 1 - i : i;
        const revision = key[1] + prepare;
        if (backwards ? revision <= from : revision >= from) out.push({ revision, commit: value[0], prepare });
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  private covering(stream: string, revision: number): Covering | undefined {
    const found = this.appendAtOrBefore(stream, revision);
    return found && covers(found, revision) ? found : undefined;
  }

  /** The stream's append whose first revision is the greatest at or before `revision`. */
  private appendAtOrBefore(stream: string, revision: number): Covering | undefined {
    for (const { key, value } of this.appendsBackFrom(stream, revision, 1)) return { first: key[1], entry: value };
    return undefined;
  }

  private appendsBackFrom(stream: string, revision: number, limit?: number) {
    return this.streams.getRange({ start: [stream, revision], end: [stream, -1], reverse: true, limit });
  }

  /**
   * The latest revision of the stream holding `id` among its last ANY_RETRY_WINDOW events (the idempotence
   * rule of `any` appends, which only the log bus makes: its publishes carry fresh ids, so almost every
   * lookup misses). Bounded, like EventStoreDB's best-effort rule for `any`: walking the whole stream would
   * make each publish cost grow with the topic's history; a retry comes right after its failed append.
   */
  private revisionOfId(stream: string, id: string): number | undefined {
    const oldest = this.revision(stream) - ANY_RETRY_WINDOW + 1;
    for (const { key, value } of this.appendsBackFrom(stream, Number.MAX_SAFE_INTEGER)) {
      const at = idsOf(value).lastIndexOf(id);
      if (at !== -1) return key[1] + at >= oldest ? key[1] + at : undefined;
      if (key[1] <= oldest) return undefined;
    }
    return undefined;
  }
}
