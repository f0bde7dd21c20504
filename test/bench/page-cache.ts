import { execFileSync } from 'node:child_process';

/**
 * Drops the pages of the files under `dir` from the OS cache (posix_fadvise DONTNEED on each), so that the
 * next reads go to the disk: how bench:graph measures a cold search. False when it could not (no python3).
 */
export function evictFromPageCache(dir: string): boolean {
  try {
    execFileSync('python3', [
      '-c',
      `import os,sys\nfor d,_,fs in os.walk(sys.argv[1]):\n for f in fs:\n  try:\n   fd=os.open(os.path.join(d,f),os.O_RDONLY)\n  except OSError:\n   continue\n  os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)\n  os.close(fd)`,
      dir,
    ]);
    return true;
  } catch {
    return false;
  }
}
