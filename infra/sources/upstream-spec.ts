/**
 * Where a source's files come from upstream, and where each lands in a folder laid out like
 * ../shared/data (so that one loader reads SVC_SOURCES_DIR and a fresh download alike).
 *
 * - `files`: fixed URLs (OFAC's exports, the UK and EU lists, single files of a repository).
 * - `githubTrees`: every file under a directory of a GitHub repository at a pinned commit, listed with
 *   the Git trees API (`GET /repos/{repo}/git/trees/{sha}`) and fetched from raw.githubusercontent.com.
 *   Directories are walked one level at a time down to `dir`, then listed recursively: Trust Wallet's
 *   repository is far above the 100,000 entries a recursive listing of the root may return.
 */

export interface UpstreamFile {
  /** Path under the source's folder. */
  readonly path: string;
  readonly url: string;
}

export interface GithubTree {
  readonly repo: string;
  readonly commit: string;
  /** Directory of the repository whose files are taken, without a trailing slash. */
  readonly dir: string;
  /** Which files under `dir` (path relative to it) to take. */
  readonly select: RegExp;
  /** Path under the source's folder of a file, from its path relative to `dir` (default: the same). */
  readonly localPath?: (relative: string) => string;
  /** Folder under the source's folder that the files land in (default: the folder itself). */
  readonly into?: string;
}

export interface UpstreamSpec {
  readonly files?: readonly UpstreamFile[];
  readonly githubTrees?: readonly GithubTree[];
  /** What the upstream names its revision when the data states no date (a commit, for pinned repositories). */
  readonly revision?: string;
}

export const GITHUB_API = 'https://api.github.com';
export const GITHUB_RAW = 'https://raw.githubusercontent.com';

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

/** The raw URL of a file of a repository at a commit. */
export const githubRaw = (repo: string, commit: string, path: string): string => `${GITHUB_RAW}/${repo}/${commit}/${encodePath(path)}`;

/** Fixed files of a repository at a commit: local path → repository path. */
export function githubFiles(repo: string, commit: string, files: Readonly<Record<string, string>>): UpstreamFile[] {
  return Object.entries(files).map(([path, repoPath]) => ({ path, url: githubRaw(repo, commit, repoPath) }));
}
