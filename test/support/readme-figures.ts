import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The flag a benchmark or evaluation needs before it rewrites its README section. */
export const WRITE_README_FLAG = '--write-readme';

/** A run prints its figures; it rewrites the README only when asked on its command line. */
export function wantsReadmeWritten(argv: readonly string[]): boolean {
  return argv.slice(2).includes(WRITE_README_FLAG);
}

/** The pages that hold figure sections (the benchmarks' in docs/benchmarks.md), searched in this order. */
export const FIGURE_PAGES = ['docs/benchmarks.md', 'docs/ARCHITECTURE.md', 'docs/data-sources.md', 'docs/operations.md', 'README.md'];

/** The first page under `root` that holds the `name` section's start marker, or null. */
export async function pageWithSection(name: string, root = '.'): Promise<string | null> {
  for (const page of FIGURE_PAGES) {
    const text = await readFile(join(root, page), 'utf8').catch(() => '');
    if (text.includes(`<!-- ${name}:start -->`)) return join(root, page);
  }
  return null;
}

/**
 * Replaces the section between `<!-- name:start -->` and `<!-- name:end -->` with `content`, in the
 * page that holds it (FIGURE_PAGES, or `path`), only when the command line carries --write-readme
 * (`npm run bench:screen -- --write-readme`): a plain run must leave the working tree as it was.
 * Resolves whether the file was written.
 */
export async function updateReadme(
  name: string,
  content: string,
  options: { readonly argv?: readonly string[]; readonly path?: string; readonly root?: string } = {},
): Promise<boolean> {
  const { argv = process.argv } = options;
  if (!wantsReadmeWritten(argv)) {
    process.stdout.write(`(the docs left as they are; pass ${WRITE_README_FLAG} to write these figures into their ${name} section)\n`);
    return false;
  }
  const path = options.path ?? (await pageWithSection(name, options.root));
  if (path === null) return false;
  const readme = await readFile(path, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < 0) return false;
  await writeFile(path, `${readme.slice(0, from + start.length)}\n${content}\n${readme.slice(to)}`);
  return true;
}
