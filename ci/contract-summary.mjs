// Reads Schemathesis' JUnit reports (one per document, ci/contract-test.sh) and prints the operations that
// failed, then the closing line `N passed, N failed` (operations) that ci/sum-results.mjs adds up. An operation
// fails on any failed check or any error; a missing or unreadable report counts as one failure. Exit 1 on any.
import { readFileSync } from 'node:fs';

const TESTCASE = /<testcase\s+name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g;
const unescape = (text) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  let xml;
  try {
    xml = readFileSync(file, 'utf8');
  } catch {
    console.log(`no report ${file}: counted as one failure`);
    failed += 1;
    continue;
  }
  const cases = [...xml.matchAll(TESTCASE)];
  if (cases.length === 0) {
    console.log(`${file}: no operation was tested (did the document load?): counted as one failure`);
    failed += 1;
    continue;
  }
  for (const [, name, , body = ''] of cases) {
    const checks = [...body.matchAll(/<(failure|error)[^>]*message="([^"]*)"/g)].map(([, kind, message]) => `${kind} ${unescape(message)}`);
    if (checks.length === 0) {
      passed += 1;
    } else {
      failed += 1;
      console.log(`FAILED ${unescape(name)}: ${[...new Set(checks)].join(', ')}`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
