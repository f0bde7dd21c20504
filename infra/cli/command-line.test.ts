import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';
import { argvOf, parseCommandLine } from './command-line.js';
import { VERB_CATALOG, acceptedFlags } from './verb-catalog.js';
import { VERBS } from './verbs.js';

const verbOf = (...argv: string[]) => {
  const line = parseCommandLine(argv);
  if (line.kind !== 'verb') throw new Error(`expected a verb, got ${JSON.stringify(line)}`);
  return line;
};

describe('the command line', () => {
  it('knows every verb the CLI runs, and runs every verb it knows (mcp-proxy and verdict verify run on their own)', () => {
    expect(
      Object.keys(VERB_CATALOG)
        .filter((verb) => verb !== 'mcp-proxy' && verb !== 'verdict verify')
        .sort(),
    ).toEqual(Object.keys(VERBS).sort());
  });

  it('refuses an unknown flag with the verb’s usage: `deposit … --dry-run` is not a deposit', () => {
    const line = parseCommandLine(['deposit', '--user', 'u1', '--usd', '5', '--dry-run']);
    expect(line).toMatchObject({ kind: 'refused', error: { code: 'bad_request', message: "unknown option '--dry-run'" } });
    expect(line.kind === 'refused' && line.text).toContain('Usage: cli deposit [options]');
    expect(line.kind === 'refused' && line.text).toContain('--usd <amount>');
  });

  it('refuses an unknown verb with the list of verbs, a missing value and an extra argument', () => {
    expect(parseCommandLine(['frobnicate'])).toMatchObject({
      kind: 'refused',
      error: { message: 'unknown command "frobnicate"', commands: expect.arrayContaining(['deposit', 'account create']) },
    });
    expect(parseCommandLine(['account'])).toMatchObject({ kind: 'refused', error: { message: 'unknown command "account"' } });
    expect(parseCommandLine(['account', 'open'])).toMatchObject({ kind: 'refused', error: { message: 'unknown command "account open"' } });
    expect(parseCommandLine(['deposit', '--user'])).toMatchObject({
      kind: 'refused',
      error: { message: expect.stringContaining("'--user <id>' argument missing") },
    });
    expect(parseCommandLine(['kyt', 'policy', 'extra'])).toMatchObject({
      kind: 'refused',
      error: { message: expect.stringContaining('too many arguments') },
    });
    expect(parseCommandLine(['data', 'import', 'ofac'])).toMatchObject({
      kind: 'refused',
      error: { message: expect.stringContaining("missing required argument 'path'") },
    });
  });

  it('answers --help for the program, a group and a verb', () => {
    const program = parseCommandLine(['--help']);
    expect(program.kind === 'help' && program.text).toContain('deposit [options]');
    const group = parseCommandLine(['account', '--help']);
    expect(group.kind === 'help' && group.text).toContain('superadmin [options]');
    const verb = parseCommandLine(['data', 'curate', '--help']);
    expect(verb.kind === 'help' && verb.text).toContain('--evidence <url>');
  });

  it('hands the verbs the words and flags they read, as args.ts parses them', () => {
    const create = verbOf('account', 'create', '--email', 'a@b.test', '--plan', 'ledger', '--with-key', '--deposit=5');
    expect(create).toEqual({
      kind: 'verb',
      verb: 'account create',
      args: { words: ['account', 'create'], flags: { email: 'a@b.test', plan: 'ledger', 'with-key': true, deposit: '5' } },
    });
    expect(verbOf('screen', '--network', 'ETH', '0xa', '0xb').args).toEqual({ words: ['screen', '0xa', '0xb'], flags: { network: 'ETH' } });
    expect(verbOf('data', 'import', 'ofac', '/tmp/x.xml').args.words).toEqual(['data', 'import', 'ofac', '/tmp/x.xml']);
    expect(verbOf('data', 'sync', '--from-dir').args.flags).toEqual({ 'from-dir': true });
    expect(verbOf('data', 'sync', '--from-dir', '/d').args.flags).toEqual({ 'from-dir': '/d' });
    expect(verbOf('account', 'providers', '--user', 'u', '--providers', '').args.flags).toEqual({ user: 'u', providers: '' });
    for (const argv of [
      ['deposit', '--user', 'u', '--usd', '2.5'],
      ['data', 'curate', 'add', '--evidence', 'https://x.test/?a=b&c=d', '--label', '--odd'],
    ]) {
      const { args } = verbOf(...argv);
      expect(parseArgs(argvOf(args))).toEqual(args);
    }
  });

  it('lists each verb’s flags by name', () => {
    expect(acceptedFlags('deposit')).toEqual(['user', 'usd', 'id']);
    expect(acceptedFlags('data sync')).toEqual(['from-dir', 'source']);
    expect(acceptedFlags('kyt policy')).toEqual([]);
  });
});
