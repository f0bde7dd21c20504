// `npm test`: runs vitest, then prints the plain closing line `N passed, N failed, N skipped` that CI reads
// (vitest's own summary is not a line CI understands). Exits with vitest's exit code.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const report = 'vitest.json';
rmSync(report, { force: true });
const result = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  // A file that fails before its tests run (an import or top-level error) has no failed test: count it as one.
  const brokenFiles = r.testResults.filter((file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles.length} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
} else {
  console.log('0 passed, 1 failed');
}
process.exit(result.status ?? 1);
