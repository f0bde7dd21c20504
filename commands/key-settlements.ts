import type { Clock } from '../domain/ports/clock.port.js';
import { startTimer } from './clock-timer.js';
import type { CommandExecutor } from './command-executor.js';

/**
 * In-process signals that an Idempotency-Key's running call settled (its outcome stored or its claim
 * released). A twin request waits on one instead of polling the stream: a claim is "in progress" only
 * for the process that holds it (another boot takes it over), so the settling call is always local.
 * One registry per executor (per process); an entry lives only while a twin waits on it.
 */
const registries = new WeakMap<CommandExecutor, Map<string, Set<() => void>>>();

function registryOf(executor: CommandExecutor): Map<string, Set<() => void>> {
  let registry = registries.get(executor);
  if (!registry) {
    registry = new Map();
    registries.set(executor, registry);
  }
  return registry;
}

/** Wakes every twin waiting on `stream`. */
export function signalSettled(executor: CommandExecutor, stream: string): void {
  const registry = registryOf(executor);
  const waiting = registry.get(stream);
  if (!waiting) return;
  registry.delete(stream);
  for (const wake of waiting) wake();
}

export interface SettlementWait {
  /** True when the call settled, false when `timeoutMs` of the clock passed first (or the wait was cancelled). */
  readonly settled: Promise<boolean>;
  cancel(): void;
}

/** Starts waiting for the next settlement of `stream`; start it BEFORE reading the claim, so none is missed. */
export function nextSettlement(deps: { executor: CommandExecutor; clock: Clock }, stream: string, timeoutMs: number): SettlementWait {
  const registry = registryOf(deps.executor);
  let finish: (settled: boolean) => void = () => undefined;
  const settled = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  const waiting = registry.get(stream) ?? new Set<() => void>();
  registry.set(stream, waiting);
  const wake = () => done(true);
  const stopTimer = startTimer(deps.clock, Math.max(0, timeoutMs), () => done(false));
  function done(result: boolean) {
    stopTimer();
    waiting.delete(wake);
    if (waiting.size === 0 && registry.get(stream) === waiting) registry.delete(stream);
    finish(result);
  }
  waiting.add(wake);
  return { settled, cancel: () => done(false) };
}
