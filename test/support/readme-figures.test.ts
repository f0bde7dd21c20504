import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pageWithSection, updateReadme, wantsReadmeWritten } from './readme-figures.js';

describe('benchmark figures and the README', () => {
  let dir: string;
  let readme: string;
  const before = 'intro\n<!-- bench:screen:start -->\nold figures\n<!-- bench:screen:end -->\nrest\n';

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'readme-figures-'));
    readme = join(dir, 'README.md');
    await writeFile(readme, before);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('asks for the README only with --write-readme after the script name', () => {
    expect(wantsReadmeWritten(['node', 'screen.bench.ts'])).toBe(false);
    expect(wantsReadmeWritten(['node', 'screen.bench.ts', '--write-readme'])).toBe(true);
    // The interpreter's own arguments are not the script's.
    expect(wantsReadmeWritten(['--write-readme', 'screen.bench.ts'])).toBe(false);
  });

  it('leaves the README untouched on a plain run', async () => {
    const wrote = await updateReadme('bench:screen', 'new figures', { argv: ['node', 'screen.bench.ts'], path: readme });
    expect(wrote).toBe(false);
    expect(await readFile(readme, 'utf8')).toBe(before);
  });

  it('writes the section between its markers when asked', async () => {
    const wrote = await updateReadme('bench:screen', 'new figures', { argv: ['node', 'screen.bench.ts', '--write-readme'], path: readme });
    expect(wrote).toBe(true);
    expect(await readFile(readme, 'utf8')).toBe('intro\n<!-- bench:screen:start -->\nnew figures\n<!-- bench:screen:end -->\nrest\n');
  });

  it('writes into the docs page that holds the section: the benchmarks page, not the README', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs', 'benchmarks.md'), before);
    await writeFile(readme, 'the README has no figures\n');
    expect(await updateReadme('bench:screen', 'new figures', { argv: ['node', 'screen.bench.ts', '--write-readme'], root: dir })).toBe(
      true,
    );
    expect(await readFile(join(dir, 'docs', 'benchmarks.md'), 'utf8')).toBe(
      'intro\n<!-- bench:screen:start -->\nnew figures\n<!-- bench:screen:end -->\nrest\n',
    );
    expect(await readFile(readme, 'utf8')).toBe('the README has no figures\n');
    expect(await updateReadme('bench:nowhere', 'x', { argv: ['node', 'x.bench.ts', '--write-readme'], root: dir })).toBe(false);
  });

  it('finds every figure section of the repository’s docs where the benchmarks write it', async () => {
    const root = join(import.meta.dirname, '..', '..');
    for (const name of [
      'bench:screen',
      'bench:x402',
      'bench:mcp',
      'bench:rebuild',
      'bench:webhooks',
      'bench:inspect',
      'bench:intel',
      'bench:dashboard',
      'bench:kyt',
      'bench:graph',
      'bench:monitoring',
      'bench:log',
      'bench:topology',
      'bench:pg-append',
      'eval',
    ]) {
      expect(await pageWithSection(name, root), name).not.toBeNull();
    }
    expect(await pageWithSection('bench:screen', root)).toBe(join(root, 'docs', 'benchmarks.md'));
  });

  it('gates every benchmark and the evaluation: none writes the README by another way', async () => {
    const { readdir } = await import('node:fs/promises');
    const root = join(import.meta.dirname, '..');
    const scripts = [
      ...(await readdir(join(root, 'bench'))).map((f) => join(root, 'bench', f)),
      ...(await readdir(join(root, 'eval'))).map((f) => join(root, 'eval', f)),
    ];
    for (const script of scripts) {
      const text = await readFile(script, 'utf8');
      expect(text, script).not.toMatch(/writeFile\([^)]*README/);
      if (text.includes('updateReadme(')) expect(text, script).toContain("from '../support/readme-figures.js'");
    }
  });
});
