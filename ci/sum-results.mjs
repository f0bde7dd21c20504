// Sums the closing lines (`N passed, N failed[, N skipped]`) of several test runs' logs into one line, so
// that the last line .ci/run prints counts both `npm test` and `npm run test:external`. A log without such a
// line (a run that crashed before its summary) counts as one failure.
import { readFileSync } from 'node:fs';

const LINE = /^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/;
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // missing log: counted below as a failed run
  }
  // eslint-disable-next-line no-control-regex
  const lines = text.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/);
  const last = lines
    .map((line) => LINE.exec(line.trim()))
    .filter(Boolean)
    .pop();
  if (!last) {
    failed += 1;
    continue;
  }
  passed += Number(last[1]);
  failed += Number(last[2]);
  skipped += Number(last[3] ?? 0);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
