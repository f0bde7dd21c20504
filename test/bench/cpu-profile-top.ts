import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) that self time needs. */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Now on the clock of V8's profile timestamps (the monotonic clock, in µs, shared by the processes of a machine). */
export const profileClockMicros = (): number => Number(process.hrtime.bigint() / 1000n);

export interface FrameSelfTime {
  readonly frame: string;
  readonly share: number;
}

/**
 * Self time per frame (function, file and line), largest first, as shares of the busy (not idle) sampled
 * time from `fromMicros` on (profileClockMicros), so a start-up's module loading stays out of it.
 */
export function topSelfTime(profile: CpuProfile, limit: number, fromMicros = 0): FrameSelfTime[] {
  const frameOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url
      .replace(/^file:\/\//, '')
      .replace(/^.*\/node_modules\//, '')
      .replace(process.cwd() + '/', '');
    frameOf.set(node.id, `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim());
  }
  const micros = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const frame = frameOf.get(id) ?? '?';
    if (frame === '(idle)' || at < fromMicros) return;
    micros.set(frame, (micros.get(frame) ?? 0) + delta);
    total += delta;
  });
  return [...micros.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([frame, time]) => ({ frame, share: total === 0 ? 0 : time / total }));
}

/** Prints the top self-time frames of the main thread's profile in `dir` (tsx's loader thread writes its own). */
export async function printTopSelfTime(dir: string, fromMicros: number, limit = 30): Promise<void> {
  for (const name of (await readdir(dir)).filter((file) => /\.0\.\d+\.cpuprofile$/.test(file))) {
    const profile = JSON.parse(await readFile(join(dir, name), 'utf8')) as CpuProfile;
    process.stdout.write(`top self time of busy time, ${join(dir, name)}:\n`);
    for (const { frame, share } of topSelfTime(profile, limit, fromMicros))
      process.stdout.write(`  ${(share * 100).toFixed(1).padStart(5)} %  ${frame}\n`);
  }
}
