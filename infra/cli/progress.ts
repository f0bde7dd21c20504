import { Presets, SingleBar } from 'cli-progress';

/**
 * A progress bar on stderr for long data verbs (stdout stays the verb's JSON). Drawn only when stderr is
 * a terminal; otherwise one line per phase change, so logs stay readable.
 */
export interface Progress {
  update(phase: string, done: number, total: number, detail: string): void;
  stop(): void;
}

export function stderrProgress(): Progress {
  const tty = process.stderr.isTTY === true;
  const bar = new SingleBar(
    { stream: process.stderr, format: ' {phase} [{bar}] {value}/{total} {detail}', hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  let current: string | null = null;
  return {
    update(phase, done, total, detail) {
      if (phase !== current) {
        if (tty && current !== null) bar.stop();
        if (tty) bar.start(Math.max(total, 1), done, { phase, detail });
        else process.stderr.write(`${phase}…\n`);
        current = phase;
      }
      if (tty) {
        bar.setTotal(Math.max(total, 1));
        bar.update(done, { phase, detail });
      }
    },
    stop() {
      if (tty && current !== null) bar.stop();
    },
  };
}

/** What a verb may use besides the services: where its progress goes (the terminal, or the CLI over HTTP). */
export interface VerbIo {
  progress(): Progress;
}

export const terminalIo: VerbIo = { progress: stderrProgress };

/** The admin route's streamed answer (declared here, not in admin-route.ts: the CLI's client side must not load the verbs). */
export const NDJSON = 'application/x-ndjson';

/** One progress update as a line of the admin route's NDJSON stream. */
export interface ProgressLine {
  readonly progress: { readonly phase: string; readonly done: number; readonly total: number; readonly detail: string };
}

const LINE_EVERY_MS = 100;

/** Progress sent as NDJSON lines, at most one per 100 ms within a phase (each new phase at once). */
export function lineProgress(write: (line: ProgressLine) => void): Progress {
  let phase: string | null = null;
  let sentAt = 0;
  return {
    update(next, done, total, detail) {
      const now = Date.now();
      if (next === phase && now - sentAt < LINE_EVERY_MS && done < total) return;
      phase = next;
      sentAt = now;
      write({ progress: { phase: next, done, total, detail } });
    },
    stop() {},
  };
}
