/**
 * The process the ledger rollover crash test kills (test/e2e/ledger-rollover-crash.e2e.test.ts): the real
 * event store of the run (the file log, or PostgreSQL in test:external's second pass), command executor and billing commands, on a clock that runs two days per charge, so
 * a month ends every 15 charges. It charges ids 0..N-1 in order (4 at a time) and repeats each charge a
 * few ids back (a poll, often from the previous month). After each charge it prints `ack <i> <duplicate>`.
 * After an append that closed a period it prints `closed <stream>` and pauses before opening the next
 * one: the test kills it there. On start it prints `pending <stream>` when a period was left closed with
 * its successor unopened (the previous life died mid-rollover).
 */
import { chargeCall, deposit } from '../../commands/billing.commands.js';
import type { CommandDeps } from '../../commands/command-deps.js';
import { createCommandExecutor } from '../../commands/command-executor.js';
import { walkLedgerChain } from '../../commands/ledger-chain-walk.js';
import { changePlan } from '../../commands/billing.commands.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { openTestEventStore } from './test-event-store.js';
import { ROLLOVER_CHARGES, ROLLOVER_PRICE, ROLLOVER_START, ROLLOVER_USER, chargeIdOf, timeOf } from './ledger-rollover-plan.js';

const write = (line: string) => new Promise<void>((resolve) => process.stdout.write(`${line}\n`, () => resolve()));

/** Pauses after every append that closed a period: the crash window between the close and the open. */
function pausingAfterClose(inner: EventStore): EventStore {
  return {
    append: async (stream, events, options) => {
      const result = await inner.append(stream, events, options);
      if (events.some((e) => e.type === 'PeriodClosed')) {
        await write(`closed ${stream}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      return result;
    },
    read: (stream, options) => inner.read(stream, options),
    streamRevision: (stream) => inner.streamRevision(stream),
    readAll: (options) => inner.readAll(options),
    headPosition: () => inner.headPosition(),
    subscribeToAll: (options) => inner.subscribeToAll(options),
    close: () => inner.close(),
  };
}

async function main() {
  const inner = await openTestEventStore(process.env.DATA_DIR!);
  for await (const period of walkLedgerChain(inner, ROLLOVER_USER))
    if (period.successorPending) await write(`pending ${period.successorPending}`);
  const store = pausingAfterClose(inner);
  const executor = createCommandExecutor({ store, clock: { now: () => new Date() }, ids: uuidIds });
  const depsAt = (ms: number): CommandDeps => {
    const clock: Clock = { now: () => new Date(ms) };
    return { executor, clock, ids: uuidIds, random: cryptoRandom, bootId: `boot-${process.pid}` };
  };
  await changePlan(depsAt(ROLLOVER_START), ROLLOVER_USER, { kind: 'ledger' });
  await deposit(depsAt(ROLLOVER_START), {
    userId: ROLLOVER_USER,
    depositId: 'initial',
    amountMicros: ROLLOVER_CHARGES * ROLLOVER_PRICE * 2,
  });
  await write('ready');
  const details = { endpoint: 'POST /v2/check-address', keyId: null, network: 'ethereum', subject: null };
  const charge = async (i: number, at: number) => {
    const { duplicate } = await chargeCall(depsAt(at), { userId: ROLLOVER_USER, chargeId: chargeIdOf(i), product: 'screen', details });
    await write(`ack ${i} ${duplicate}`);
  };
  let next = 0;
  const worker = async () => {
    while (next < ROLLOVER_CHARGES) {
      const i = next++;
      await charge(i, timeOf(i));
      // a poll of a check charged a few charges ago, delivered now
      if (i >= 7) await charge(i - 7, timeOf(i));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  await write('done');
  await inner.close();
}

main().catch(async (error: unknown) => {
  await write(`error ${String(error)}`);
  process.exit(1);
});
