import { present } from '../../domain/shared/present.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { fail } from '../../domain/shared/errors.js';
import type { CatalogEntry } from './source-catalog.js';
import { GITHUB_API, githubRaw, type GithubTree, type UpstreamFile } from './upstream-spec.js';

/**
 * Downloads each source's upstream files into a directory laid out like ../shared/data. A source is
 * all or nothing: its files are written only once every one of them has arrived, so a failed source
 * leaves nothing behind and its previous import stays current. Every URL goes through `resolve`, the
 * configured mirror (upstream-mirror.ts).
 */

export type Fetch = (url: string) => Promise<Uint8Array>;

export interface DownloadProgress {
  readonly source: string;
  readonly filesDone: number;
  readonly filesTotal: number;
}

export interface DownloadOutcome {
  readonly source: string;
  readonly files: number;
  readonly bytes: number;
  readonly error: string | null;
}

const treeListing = z.object({
  tree: z.array(z.object({ path: z.string(), type: z.string(), sha: z.string() })),
  truncated: z.boolean().optional(),
});

async function fetchTree(fetch: Fetch, resolve: (url: string) => string, repo: string, sha: string, recursive: boolean) {
  const url = `${GITHUB_API}/repos/${repo}/git/trees/${sha}${recursive ? '?recursive=1' : ''}`;
  const body: unknown = JSON.parse(Buffer.from(await fetch(resolve(url))).toString('utf8'));
  const parsed = treeListing.safeParse(body);
  if (!parsed.success) throw fail('data_import_failed', `${url}: not a Git trees listing`);
  if (parsed.data.truncated) throw fail('data_import_failed', `${url}: the listing is truncated`);
  return parsed.data.tree;
}

/** The files a GitHub tree spec selects, walking down to its directory one level at a time. */
export async function listGithubTree(fetch: Fetch, resolve: (url: string) => string, tree: GithubTree): Promise<UpstreamFile[]> {
  let sha = tree.commit;
  for (const segment of tree.dir.split('/').filter(Boolean)) {
    const entry = (await fetchTree(fetch, resolve, tree.repo, sha, false)).find((e) => e.path === segment && e.type === 'tree');
    if (!entry) throw fail('data_import_failed', `${tree.repo}@${tree.commit}: no directory '${tree.dir}'`);
    sha = entry.sha;
  }
  const entries = await fetchTree(fetch, resolve, tree.repo, sha, true);
  const prefix = tree.dir === '' ? '' : `${tree.dir}/`;
  return entries
    .filter((entry) => entry.type === 'blob' && tree.select.test(entry.path))
    .map((entry) => {
      const local = tree.localPath ? tree.localPath(entry.path) : entry.path;
      return { path: tree.into ? `${tree.into}/${local}` : local, url: githubRaw(tree.repo, tree.commit, `${prefix}${entry.path}`) };
    });
}

/** Runs `task` over `items` with at most `limit` at a time. */
async function pooled<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(present(items[next++], 'next stays below the item count (checked by the loop)'));
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function downloadSources(options: {
  readonly catalog: readonly CatalogEntry[];
  readonly targetDir: string;
  readonly fetch: Fetch;
  readonly resolve: (url: string, source: string) => string;
  readonly concurrency?: number;
  readonly onProgress?: (progress: DownloadProgress) => void;
}): Promise<DownloadOutcome[]> {
  const outcomes: DownloadOutcome[] = [];
  for (const entry of options.catalog) {
    const source = entry.descriptor.slug;
    const resolve = (url: string): string => options.resolve(url, source);
    try {
      const listed = await Promise.all((entry.upstream.githubTrees ?? []).map((tree) => listGithubTree(options.fetch, resolve, tree)));
      const files = [...(entry.upstream.files ?? []), ...listed.flat()];
      const bodies = new Map<string, Uint8Array>();
      options.onProgress?.({ source, filesDone: 0, filesTotal: files.length });
      await pooled(files, options.concurrency ?? 8, async (file) => {
        bodies.set(file.path, await options.fetch(resolve(file.url)));
        options.onProgress?.({ source, filesDone: bodies.size, filesTotal: files.length });
      });
      for (const [path, bytes] of bodies) {
        const target = join(options.targetDir, entry.folder, path);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, bytes);
      }
      outcomes.push({ source, files: files.length, bytes: [...bodies.values()].reduce((sum, b) => sum + b.length, 0), error: null });
    } catch (error) {
      outcomes.push({ source, files: 0, bytes: 0, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcomes;
}
