import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join, relative, sep } from 'node:path';
import { SOURCE_CATALOG } from '../../infra/sources/source-catalog.js';

/**
 * A stand-in for every upstream of `data sync`, on 127.0.0.1: it serves a directory laid out like
 * ../shared/data at the URLs the catalog downloads from, under the mirror layout of
 * infra/sources/upstream-mirror.ts (`/<host>/<path>`), and answers the GitHub Git trees API
 * (`GET /repos/{repo}/git/trees/{sha}[?recursive=1]`, its documented JSON shape) for the repositories
 * those files belong to. `overrides` replaces a served file's bytes (a broken upstream), `missing`
 * makes a URL answer 404.
 */

export interface UpstreamServer {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

interface TreeNode {
  readonly files: Set<string>;
  readonly dirs: Set<string>;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

const mirrorPath = (url: string): string => `/${url.replace(/^https?:\/\//, '')}`;
const shaOf = (text: string): string => createHash('sha1').update(text).digest('hex');

export async function startUpstreamServer(
  dataDir: string,
  options: { overrides?: Record<string, string>; missing?: readonly string[] } = {},
): Promise<UpstreamServer> {
  const served = new Map<string, string | Buffer>();
  const trees = new Map<string, Map<string, TreeNode>>(); // `${repo}@${commit}` → dir path → node
  for (const entry of SOURCE_CATALOG) {
    for (const path of await filesUnder(join(dataDir, entry.folder))) {
      if (!entry.files.some((spec) => spec.match.test(path))) continue;
      const url = entry.upstreamUrl(path);
      served.set(mirrorPath(url), await readFile(join(dataDir, entry.folder, path)));
      const raw = /^https:\/\/raw\.githubusercontent\.com\/([^/]+\/[^/]+)\/([0-9a-f]{40})\/(.+)$/.exec(url);
      if (raw) addToTree(trees, `${raw[1]}@${raw[2]}`, decodeURIComponent(raw[3]!));
    }
  }
  for (const [url, text] of Object.entries(options.overrides ?? {})) served.set(mirrorPath(url), text);
  for (const url of options.missing ?? []) served.delete(mirrorPath(url));

  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const listing = /^\/api\.github\.com\/repos\/([^/]+\/[^/]+)\/git\/trees\/([0-9a-f]{40})(\?recursive=1)?$/.exec(path);
    const body = listing ? treeListing(trees, listing[1]!, listing[2]!, listing[3] !== undefined) : served.get(path);
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      return;
    }
    response.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function addToTree(trees: Map<string, Map<string, TreeNode>>, key: string, path: string): void {
  const nodes = trees.get(key) ?? new Map<string, TreeNode>();
  trees.set(key, nodes);
  const node = (dir: string): TreeNode => {
    const known = nodes.get(dir) ?? { files: new Set<string>(), dirs: new Set<string>() };
    nodes.set(dir, known);
    return known;
  };
  const parts = path.split('/');
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth).join('/');
    if (depth === parts.length - 1) node(dir).files.add(parts[depth]!);
    else node(dir).dirs.add(parts[depth]!);
  }
}

/** The Git trees API's answer for a tree (the commit's root tree, or a directory by its sha). */
function treeListing(trees: Map<string, Map<string, TreeNode>>, repo: string, sha: string, recursive: boolean): string | undefined {
  for (const [key, nodes] of trees) {
    const [treeRepo, commit] = key.split('@') as [string, string];
    if (treeRepo !== repo) continue;
    const dirSha = (dir: string): string => (dir === '' ? commit : shaOf(`${key}:${dir}`));
    const root = [...nodes.keys()].find((dir) => dirSha(dir) === sha);
    if (root === undefined) continue;
    const entries: { path: string; mode: string; type: string; sha: string }[] = [];
    const walk = (dir: string, prefix: string): void => {
      const node = nodes.get(dir)!;
      for (const name of [...node.dirs].sort()) {
        const child = dir === '' ? name : `${dir}/${name}`;
        entries.push({ path: `${prefix}${name}`, mode: '040000', type: 'tree', sha: dirSha(child) });
        if (recursive) walk(child, `${prefix}${name}/`);
      }
      for (const name of [...node.files].sort()) {
        entries.push({ path: `${prefix}${name}`, mode: '100644', type: 'blob', sha: shaOf(`${key}:${dir}/${name}`) });
      }
    };
    walk(root, '');
    return JSON.stringify({ sha, url: `https://api.github.com/repos/${repo}/git/trees/${sha}`, tree: entries, truncated: false });
  }
  return undefined;
}
