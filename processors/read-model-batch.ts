import type { Doc, DocEntry, DocWrite, ReadStore } from '../domain/ports/read-store.port.js';

/**
 * The documents a projection runner has folded but not yet committed. Folding reads through it (staged
 * writes first, then those of the commit in flight, then the store), so consecutive events on one
 * document see each other before anything is written; `seal` hands the staged writes to a commit, and
 * `committed` forgets them once it is durable. Bounded by the runner's batch size.
 */
export interface ReadModelBatch {
  current(collection: string, id: string): Promise<DocEntry<Doc> | null>;
  stage(write: DocWrite): void;
  /** The staged writes, one per document (the last), now in flight. */
  seal(): DocWrite[];
  /** The sealed writes are durable: reads go to the store again. */
  committed(): void;
  /** Nothing staged and nothing in flight: whatever is folded is already in the store. */
  isEmpty(): boolean;
}

const keyOf = (collection: string, id: string): string => `${collection}\u0000${id}`;

export function createReadModelBatch(readStore: ReadStore): ReadModelBatch {
  let staged = new Map<string, DocWrite>();
  let sealed = new Map<string, DocWrite>();
  const collections = new Map<string, ReturnType<ReadStore['collection']>>();
  const collection = (name: string) => {
    let found = collections.get(name);
    if (found === undefined) collections.set(name, (found = readStore.collection(name)));
    return found;
  };
  return {
    async current(name, id) {
      const key = keyOf(name, id);
      const pending = staged.get(key) ?? sealed.get(key);
      if (pending) return { doc: pending.doc, position: pending.position };
      return collection(name).entry(id);
    },
    stage(write) {
      staged.set(keyOf(write.collection, write.id), write);
    },
    seal() {
      sealed = staged;
      staged = new Map();
      return [...sealed.values()];
    },
    committed() {
      sealed = new Map();
    },
    isEmpty: () => staged.size === 0 && sealed.size === 0,
  };
}
