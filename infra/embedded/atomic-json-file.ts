import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fail } from '../../domain/shared/errors.js';

/**
 * A small JSON file that a crash (kill -9, power loss) leaves holding either its old or its new content:
 * write a temp file, fsync it, rename it over the old one, fsync the directory. Writes are coalesced: while
 * one runs, later calls share a single follow-up write of the latest value, so callers that write often
 * (offset commits) cost about one fsync per round rather than one each.
 */
export class AtomicJsonFile {
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private latest = '';

  private constructor(private readonly path: string) {}

  /** Opens the file, creating its directory; `value` is undefined when the file does not exist yet. */
  static async open(path: string): Promise<{ file: AtomicJsonFile; value: unknown }> {
    await mkdir(dirname(path), { recursive: true });
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file: new AtomicJsonFile(path), value: undefined };
      throw error;
    }
    try {
      return { file: new AtomicJsonFile(path), value: JSON.parse(text) as unknown };
    } catch (error) {
      throw fail('store_corrupt', `${path} is not valid JSON`, { cause: String(error) });
    }
  }

  /** Resolves once a write holding `value` (or a later value) is durable. */
  write(value: unknown): Promise<void> {
    this.latest = JSON.stringify(value);
    if (this.queued === null) {
      const run = this.tail
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.writeNow(this.latest);
        });
      this.queued = run;
      this.tail = run;
    }
    return this.queued;
  }

  /** Resolves when every write asked for so far has finished. */
  async flush(): Promise<void> {
    await this.tail.catch(() => undefined);
  }

  private async writeNow(text: string): Promise<void> {
    const temp = `${this.path}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.path);
    const dir = await open(dirname(this.path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
