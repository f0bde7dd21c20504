import { join } from 'node:path';
import { fail } from '../../domain/shared/errors.js';
import { AtomicJsonFile } from './atomic-json-file.js';

/**
 * A consumer group's committed offsets (the next offset to hand over, per topic-partition, as Kafka
 * commits them), one atomically rewritten JSON file per group so they survive kill -9. Commits of
 * partitions handled concurrently share fsyncs through the file's coalesced writes.
 */
export class GroupOffsets {
  private constructor(
    private readonly file: AtomicJsonFile,
    private readonly offsets: Record<string, Record<string, number>>,
  ) {}

  static async open(dir: string, group: string): Promise<GroupOffsets> {
    const path = join(dir, `${encodeURIComponent(group)}.json`);
    const { file, value } = await AtomicJsonFile.open(path);
    if (value !== undefined && (typeof value !== 'object' || value === null)) {
      throw fail('store_corrupt', `${path} does not hold consumer offsets`);
    }
    return new GroupOffsets(file, (value ?? {}) as Record<string, Record<string, number>>);
  }

  get(topic: string, partition: number): number | undefined {
    return this.offsets[topic]?.[String(partition)];
  }

  /** Resolves once the offsets are durable. */
  commit(entries: readonly { topic: string; partition: number; offset: number }[]): Promise<void> {
    for (const { topic, partition, offset } of entries) (this.offsets[topic] ??= {})[String(partition)] = offset;
    return this.file.write(this.offsets);
  }

  flush(): Promise<void> {
    return this.file.flush();
  }
}
