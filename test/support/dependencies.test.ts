import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every package in package.json is used: imported by a source file, or run by a script. The few used
 * otherwise are named here with how, so a package that lost its last use fails this test.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const USED_OTHERWISE: Readonly<Record<string, string>> = {
  '@foundry-rs/anvil-linux-amd64': 'test/support/chain/anvil.ts runs its anvil binary by path',
  '@types/node': 'the types of node:* imports',
  'dependency-cruiser': 'npm run lint runs its depcruise command',
  typescript: 'npm run typecheck runs its tsc command',
  rxjs: "the user's stack; .dependency-cruiser.cjs allows it in processors/, which do not use it yet",
};
const SOURCE = /\.(ts|mjs|cjs|js|sh)$/;
const SKIPPED = new Set(['node_modules', '.git', '.tmp', 'test-artifacts', 'data']);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      if (SKIPPED.has(entry.name)) return [];
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return SOURCE.test(entry.name) ? [path] : [];
    }),
  );
  return nested.flat();
}

describe('package.json', () => {
  it('has no dependency that nothing imports or runs', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    const files = await sourceFiles(ROOT);
    const texts = await Promise.all(files.map(async (path) => ({ path: relative(ROOT, path), text: await readFile(path, 'utf8') })));
    const scripts = Object.values(manifest.scripts).join('\n');
    const unused = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)].filter((name) => {
      if (USED_OTHERWISE[name]) return false;
      const bare = name.replace(/^@types\//, '');
      const imported = new RegExp(`(from |import\\(|require\\(|\\)\\()['"]${bare.replace(/[/.]/g, '\\$&')}(/[^'"]*)?['"]`);
      const command = name.split('/').pop() ?? name;
      return !texts.some(({ text }) => imported.test(text)) && !new RegExp(`(^|[\\s;&(])(npx )?${command}\\b`, 'm').test(scripts);
    });
    expect(unused).toEqual([]);
  });
});
