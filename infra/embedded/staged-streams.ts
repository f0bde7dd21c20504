import type { Revision } from '../../domain/ports/event-store.port.js';
import type { StreamView } from './append-decision.js';
import type { StreamIndex } from './stream-index.js';

/** Streams as they will be once the current round is written, so later appends of the round see earlier ones. */
export class StagedStreams {
  private readonly staged = new Map<string, { ids: string[]; revisionById: Map<string, Revision> }>();

  constructor(private readonly index: StreamIndex) {}

  view(stream: string): StreamView {
    const stored = this.index.view(stream);
    const staged = this.staged.get(stream);
    if (!staged) return stored;
    return {
      revision: stored.revision + BigInt(staged.ids.length),
      idAt: (revision) => (revision <= stored.revision ? stored.idAt(revision) : staged.ids[Number(revision - stored.revision - 1n)]),
      revisionOfId: (id) => staged.revisionById.get(id) ?? stored.revisionOfId(id),
    };
  }

  stage(stream: string, ids: readonly string[]): void {
    let staged = this.staged.get(stream);
    if (!staged) {
      staged = { ids: [], revisionById: new Map() };
      this.staged.set(stream, staged);
    }
    const base = this.index.revision(stream) + 1n;
    for (const id of ids) {
      staged.revisionById.set(id, base + BigInt(staged.ids.length));
      staged.ids.push(id);
    }
  }
}
