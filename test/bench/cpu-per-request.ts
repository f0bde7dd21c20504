import { readdir, readFile } from 'node:fs/promises';

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100; // USER_HZ on Linux
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * CPU seconds of a process and all its descendants alive now, plus what its reaped children used (a server
 * such as PostgreSQL forks a backend per connection): the share of a whole server.
 */
export async function cpuSecondsOfTree(rootPid: number): Promise<number> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
    if (stat !== undefined) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents)
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
  }
  const seconds = await Promise.all([...tree].map((pid) => cpuOfStat(pid, pid === rootPid).catch(() => 0)));
  return seconds.reduce((sum, s) => sum + s, 0);
}

async function cpuOfStat(pid: number, withReapedChildren: boolean): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (own + (withReapedChildren ? Number(fields[13]) + Number(fields[14]) : 0)) / 100;
}

/** CPU seconds per thread name (`/proc/<pid>/task/*\/comm`: the main thread, libuv's pool, V8's workers, worker threads). */
export async function cpuSecondsByThread(pid: number): Promise<Map<string, number>> {
  const byName = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const [comm, stat] = await Promise.all([
      readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => undefined),
      readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => undefined),
    ]);
    if (comm === undefined || stat === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Node names its other threads after the executable: the projection thread, libuv's pool and V8's helpers.
    const name =
      Number(tid) === pid ? 'main (answers)' : comm.trim() === 'node' ? 'other threads (projection thread, libuv pool, V8)' : comm.trim();
    byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return byName;
}
