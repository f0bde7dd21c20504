import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { open, type Key } from 'lmdb';
import { STORE_FILE } from '../../infra/embedded/store-environment.js';
import type { StoredAppend } from '../../infra/embedded/event-record.codec.js';

/**
 * Where a data directory's bytes go: per LMDB database its pages (what the disk pays), per event type
 * the bytes of its JSON, per read-model collection its documents' keys and values, per index its keys.
 * `DATA_DIR=… tsx test/bench/store-footprint.ts [out.json] [baseline.json] [calls]`: with a baseline
 * taken on the same directory before `calls` paid screens, prints the bytes each screen added.
 * Key bytes are estimated (the strings' UTF-8 length plus one byte an element), values are exact.
 */
type Figures = Record<string, { count: number; bytes: number }>;

const dataDir = process.env.DATA_DIR!;
const [outPath, baselinePath, callsArg] = process.argv.slice(2);
const keyBytes = (key: Key): number =>
  (Array.isArray(key) ? key : [key]).reduce<number>((sum, part) => sum + Buffer.byteLength(String(part)) + 1, 0);
const add = (figures: Figures, name: string, bytes: number) => {
  const entry = (figures[name] ??= { count: 0, bytes: 0 });
  entry.count += 1;
  entry.bytes += bytes;
};

function pages(path: string, names: readonly string[], figures: Figures): void {
  const root = open({ path, readOnly: true, compression: false });
  for (const name of names) {
    const stats = root.openDB({ name }).getStats() as Record<string, number>;
    const count = stats.treeBranchPageCount! + stats.treeLeafPageCount! + stats.overflowPages!;
    figures[`pages ${path.split('/').slice(-2).join('/')}:${name}`] = { count: stats.entryCount!, bytes: count * stats.pageSize! };
  }
  void root.close();
}

function events(figures: Figures): void {
  const root = open({ path: join(dataDir, 'store', STORE_FILE), readOnly: true, compression: false });
  const db = root.openDB<StoredAppend, number>({ name: 'events', compression: { threshold: 256 } });
  for (const { value } of db.getRange()) {
    const list = JSON.parse(value[3]) as { type: string }[];
    for (const event of list) add(figures, `event ${event.type}`, Buffer.byteLength(JSON.stringify(event)) / 1);
  }
  const streams = root.openDB<unknown, Key[]>({ name: 'streams' });
  for (const { key } of streams.getRange()) add(figures, `stream-index ${String(key[0]).split('-')[0]}`, keyBytes(key));
  void root.close();
}

function readModels(figures: Figures): void {
  const root = open({ path: join(dataDir, 'read-models'), readOnly: true, compression: false });
  const docs = root.openDB<unknown, Key[]>({ name: 'docs' });
  for (const key of docs.getKeys()) {
    add(figures, `doc ${String(key[0])}`, keyBytes(key) + (docs.getBinary(key)?.length ?? 0));
  }
  const index = root.openDB<unknown, Key[]>({ name: 'index' });
  for (const key of index.getKeys()) add(figures, `index ${String(key[0])}:${String(key[1])}`, keyBytes(key));
  void root.close();
}

const figures: Figures = {};
pages(join(dataDir, 'store', STORE_FILE), ['events', 'streams', 'checkpoints', 'meta'], figures);
pages(join(dataDir, 'read-models'), ['docs', 'index', 'checkpoints', 'indexes'], figures);
events(figures);
readModels(figures);
if (outPath) await writeFile(outPath, JSON.stringify(figures));
const baseline: Figures = baselinePath && existsSync(baselinePath) ? JSON.parse(await readFile(baselinePath, 'utf8')) : {};
const calls = Number(callsArg ?? 1);
for (const [name, { count, bytes }] of Object.entries(figures).sort(([a], [b]) => a.localeCompare(b))) {
  const before = baseline[name] ?? { count: 0, bytes: 0 };
  const perCall = (bytes - before.bytes) / calls;
  if (baselinePath && perCall < 1) continue;
  process.stdout.write(
    `${name.padEnd(48)} ${String(count).padStart(9)} ${String(bytes).padStart(12)}  ${baselinePath ? `${perCall.toFixed(0).padStart(6)} B/call, ${((count - before.count) / calls).toFixed(2)} entries/call` : ''}\n`,
  );
}
