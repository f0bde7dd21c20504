import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) that self time needs. */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface FrameSelfTime {
  readonly frame: string;
  readonly share: number;
}

/** Self time per frame (function, file and line), largest first, as shares of the busy (not idle) sampled time. */
export function topSelfTime(profile: CpuProfile, limit: number): FrameSelfTime[] {
  const frameOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(process.cwd() + '/', '');
    frameOf.set(node.id, `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim());
  }
  const micros = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const frame = frameOf.get(id) ?? '?';
    if (frame === '(idle)') return;
    micros.set(frame, (micros.get(frame) ?? 0) + delta);
    total += delta;
  });
  return [...micros.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([frame, time]) => ({ frame, share: total === 0 ? 0 : time / total }));
}

/** Prints the top self-time frames of every profile in `dir` (one per thread: tsx's loader has its own). */
export async function printTopSelfTime(dir: string, limit = 30): Promise<void> {
  for (const name of (await readdir(dir)).filter((file) => file.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(await readFile(join(dir, name), 'utf8')) as CpuProfile;
    process.stdout.write(`top self time of busy time, ${join(dir, name)}:\n`);
    for (const { frame, share } of topSelfTime(profile, limit)) process.stdout.write(`  ${(share * 100).toFixed(1).padStart(5)} %  ${frame}\n`);
  }
}
