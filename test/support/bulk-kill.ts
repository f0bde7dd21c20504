import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import { expect } from 'vitest';
import type { BulkProgress } from '../../infra/chain/graph/bulk/bulk-load.js';

/**
 * The child's side of a bulk-load kill test: a progress callback that prints each stage the load enters and,
 * on entering `killStage`, stops there (a blocking wait inside the load, up to a minute) so that the parent's
 * SIGKILL lands in that stage for certain, however loaded the machine is.
 */
export function stopInStage(killStage: string | undefined): (progress: BulkProgress) => void {
  let stage = '';
  return (p) => {
    if (p.stage === stage) return;
    writeSync(1, `stage ${(stage = p.stage)}\n`);
    if (stage === killStage) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  };
}

/** The parent's side: runs the child script with `args` and the stage, and kills it with SIGKILL once it is in that stage. */
export async function bulkLoadKilledIn(script: string, args: readonly string[], stage: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args, stage], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let seen = '';
  child.stdout.on('data', (data: Buffer) => {
    seen += data.toString();
    if (seen.includes(`stage ${stage}\n`)) child.kill('SIGKILL');
  });
  await exited;
  expect(seen).toContain(`stage ${stage}\n`);
  expect(seen).not.toContain('done');
}
