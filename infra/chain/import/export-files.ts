import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { parseCsv } from '../../sources/csv.js';

/**
 * The rows of one bulk export file, chunk by chunk, from row `skip` on (a resumed import): CSV read line
 * by line (BigQuery's exports of these tables have no field spanning lines), Parquet read by row range
 * (hyparquet: pure JavaScript, Snappy built in). Rows are objects keyed by column name.
 */

export interface ExportChunk {
  readonly columns: readonly string[];
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  /** Rows of the file read so far, this chunk included. */
  readonly through: number;
}

const CHUNK_ROWS = 5000;

export async function exportColumns(path: string): Promise<readonly string[]> {
  if (path.endsWith('.parquet')) {
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    return metadata.schema.slice(1).map((element) => element.name);
  }
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    lines.close();
    return parseCsv(line, path)[0]?.fields ?? [];
  }
  return [];
}

export async function* exportChunks(path: string, skip: number): AsyncGenerator<ExportChunk> {
  yield* path.endsWith('.parquet') ? parquetChunks(path, skip) : csvChunks(path, skip);
}

async function* csvChunks(path: string, skip: number): AsyncGenerator<ExportChunk> {
  let columns: readonly string[] | null = null;
  let lines: string[] = [];
  let read = 0;
  const chunk = (): ExportChunk => {
    const header = columns ?? [];
    const rows = parseCsv(lines.join('\n'), path).map((record) => Object.fromEntries(header.map((c, i) => [c, record.fields[i] ?? ''])));
    lines = [];
    return { columns: header, rows, through: read };
  };
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    if (columns === null) {
      columns = parseCsv(line, path)[0]?.fields ?? [];
      continue;
    }
    if (line.trim() === '') continue;
    read += 1;
    if (read <= skip) continue;
    lines.push(line);
    if (lines.length >= CHUNK_ROWS) yield chunk();
  }
  if (lines.length > 0) yield chunk();
}

async function* parquetChunks(path: string, skip: number): AsyncGenerator<ExportChunk> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const columns = metadata.schema.slice(1).map((element) => element.name);
  const total = Number(metadata.num_rows);
  for (let rowStart = skip; rowStart < total; rowStart += CHUNK_ROWS) {
    const rowEnd = Math.min(total, rowStart + CHUNK_ROWS);
    const rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd });
    yield { columns, rows, through: rowEnd };
  }
}
