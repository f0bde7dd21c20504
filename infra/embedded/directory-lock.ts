import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fail } from '../../domain/shared/errors.js';

export interface DirectoryLock {
  release(): Promise<void>;
}

/**
 * Exclusive use of a data directory by one process: a `LOCK` file holding the owner's pid. A lock left by a
 * dead process (kill -9, power loss) is taken over. The file is created by hard-linking a fully written
 * temporary file, so no other process ever sees it empty.
 */
export async function lockDirectory(dir: string): Promise<DirectoryLock> {
  const path = join(dir, 'LOCK');
  const temp = join(dir, `LOCK.${process.pid}.tmp`);
  await writeFile(temp, String(process.pid));
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (await tryLink(temp, path)) return { release: () => rm(path, { force: true }) };
      const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && isAlive(owner)) {
        throw fail('store_closed', `data directory is in use by process ${owner}`, { dir, pid: owner });
      }
      await rm(path, { force: true });
    }
    throw fail('store_closed', `could not lock data directory ${dir}: its LOCK file keeps changing`, { dir });
  } finally {
    await rm(temp, { force: true });
  }
}

async function tryLink(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
