import { spawn } from 'node:child_process';

/**
 * Runs history-fill.ts in a child process (a large heap, the embedded mode): paid light screens until
 * `dataDir` holds `target` of them, with the data sets of `sourcesDir`.
 */
export function fillPaidScreens(dataDir: string, target: number, sourcesDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', 'test/bench/history-fill.ts'], {
      env: { ...process.env, MODE: 'embedded', DATA_DIR: dataDir, TARGET: String(target), SVC_SOURCES_DIR: sourcesDir },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`history-fill exited with ${code}`))));
  });
}
