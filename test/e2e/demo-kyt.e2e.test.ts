import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';

/**
 * `npm run demo:kyt -- --exit` as a newcomer runs it (its own anvil, the service as a process, the operator
 * CLI, the API): it must keep working. The three transfers judge as the demo says, the cases are opened,
 * and it prints where to log in.
 */
describe('npm run demo:kyt', () => {
  it('checks the demo chain’s three transfers, opens two cases and says where to look', async () => {
    const port = await freePort();
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'test/demo/kyt.demo.ts', '--exit'],
        { env: { ...process.env, PORT: String(port), MODE: 'embedded' }, timeout: 240_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    expect(output).toMatch(/checked\s+sanctioned\s+block\s+Severe Direct exposure/);
    expect(output).toMatch(/checked\s+indirect\s+hold\s+High Origin of funds \/ Indirect/);
    expect(output).toMatch(/checked\s+clean\s+accept\s+no alert/);
    expect(output).toContain(`alerts     http://127.0.0.1:${port}/alerts   2 open case(s) to triage`);
    expect(output).toMatch(/log in as demo@localhost, password demo-[0-9a-f]{12}/);
    expect(output).toContain('Ana Lima <ana.lima@demo.localhost> joined');
  }, 300_000);
});
