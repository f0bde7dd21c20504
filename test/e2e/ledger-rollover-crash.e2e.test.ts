import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkLedgerChain } from '../../commands/ledger-chain-walk.js';
import { openTestEventStore } from '../support/test-event-store.js';
import { ROLLOVER_CHARGES, ROLLOVER_PRICE, ROLLOVER_USER, chargeIdOf } from '../support/ledger-rollover-plan.js';

/**
 * kill -9 during a ledger period rollover: the child (test/support/ledger-rollover-child.ts) charges on a
 * clock that ends a month every 15 charges, and is killed right after it closed a period and before it
 * opened the next (and once at an arbitrary moment). Every restart retries every charge from the first.
 * Nothing acknowledged is lost, nothing is charged twice, a charge acknowledged before a crash comes
 * back as a repeat after it, and the chain of periods has no break.
 */

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

interface Life {
  readonly acks: { i: number; duplicate: boolean }[];
  readonly pending: string[];
  readonly done: boolean;
}

/** Runs the child until `killWhen` says so (then SIGKILL) or it finishes. */
function live(dataDir: string, killWhen: (line: string, acks: number) => boolean): Promise<Life> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test/support/ledger-rollover-child.ts'], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: Life['acks'] = [];
    const pending: string[] = [];
    let done = false;
    let buffered = '';
    let stderr = '';
    let killed = false;
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [word, a, b] = line.split(' ');
        if (word === 'ack') acks.push({ i: Number(a), duplicate: b === 'true' });
        if (word === 'pending') pending.push(a!);
        if (word === 'done') done = true;
        if (word === 'error') reject(new Error(`child failed: ${line}\n${stderr}`));
        if (!killed && killWhen(line, acks.length)) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolve({ acks, pending, done });
    });
  });
}

describe('ledger period rollover under kill -9', () => {
  it(
    'loses nothing and charges nothing twice when killed between closing a period and opening the next',
    { timeout: 180_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'ledger-rollover-crash-'));
      dirs.push(dataDir);
      const acknowledged = new Set<number>();
      const lives: Life[] = [];
      // three lives killed mid-rollover (at the 1st, 2nd, 3rd close they see), one at an arbitrary ack
      for (const nthClose of [1, 2, 3]) {
        let closes = 0;
        lives.push(await live(dataDir, (line) => line.startsWith('closed ') && ++closes === nthClose));
      }
      lives.push(await live(dataDir, (line, acks) => line.startsWith('ack ') && acks === 37));
      const last = await live(dataDir, () => false);
      lives.push(last);
      expect(last.done).toBe(true);

      // the kills landed inside rollovers: the next life found a closed period whose successor never opened
      expect(lives.slice(1, 4).filter((l) => l.pending.length > 0).length).toBeGreaterThanOrEqual(2);
      for (const life of lives.slice(0, -1)) {
        for (const ack of life.acks) if (!ack.duplicate) acknowledged.add(ack.i);
      }
      // after each crash, every charge acknowledged before it came back as a repeat
      for (let n = 1; n < lives.length; n++) {
        const before = new Set(lives.slice(0, n).flatMap((l) => l.acks.map((a) => a.i)));
        for (const ack of lives[n]!.acks)
          if (before.has(ack.i)) expect(ack.duplicate, `charge ${ack.i} taken again after a crash`).toBe(true);
      }
      // the last life took each charge at most once, and everything is in the chain exactly once
      const store = await openTestEventStore(dataDir);
      try {
        const charged = new Map<string, number>();
        let balance = 0;
        let periods = 0;
        for await (const period of walkLedgerChain(store, ROLLOVER_USER)) {
          periods++;
          expect(period.breaks).toEqual([]);
          expect(period.successorPending).toBeNull();
          for (const e of period.events) {
            const data = e.data as { chargeId?: string; amountMicros?: number };
            if (e.type === 'Charged') charged.set(data.chargeId!, (charged.get(data.chargeId!) ?? 0) + 1);
            if (e.type === 'Charged') balance -= data.amountMicros!;
            if (e.type === 'FundsDeposited') balance += data.amountMicros!;
          }
          if (period.state.closed) expect(period.state.closed.closing.balanceMicros).toBe(balance);
        }
        expect(periods).toBeGreaterThan(5);
        for (const [chargeId, times] of charged) expect(times, `${chargeId} charged ${times} times`).toBe(1);
        expect(charged.size).toBe(ROLLOVER_CHARGES);
        for (const i of acknowledged) expect(charged.has(chargeIdOf(i)), `acknowledged charge ${i} lost`).toBe(true);
        expect(balance).toBe(ROLLOVER_CHARGES * ROLLOVER_PRICE * 2 - ROLLOVER_CHARGES * ROLLOVER_PRICE);
      } finally {
        await store.close();
      }
    },
  );
});
