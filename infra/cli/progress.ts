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
  const bar = new SingleBar({ stream: process.stderr, format: ' {phase} [{bar}] {value}/{total} {detail}', hideCursor: true, clearOnComplete: false }, Presets.shades_classic);
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
