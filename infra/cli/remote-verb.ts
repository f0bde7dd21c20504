import { present } from '../../domain/shared/present.js';
import { NDJSON, stderrProgress, type ProgressLine } from './progress.js';
import type { ServiceFile } from './service-file.js';
import type { VerbResult } from './verbs.js';

type Line = ProgressLine | { result: VerbResult } | { error: { code: string; message: string } };

/** Sends a verb to the running service and draws its streamed progress on this terminal. */
export async function runRemoteVerb(running: ServiceFile, argv: readonly string[]): Promise<VerbResult> {
  const response = await fetch(`http://127.0.0.1:${running.port}/admin/cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: NDJSON, 'x-admin-token': running.token },
    body: JSON.stringify({ argv }),
  });
  if (!(response.headers.get('content-type') ?? '').startsWith(NDJSON) || !response.body) {
    const body = (await response.json()) as VerbResult | { error: unknown };
    return 'exitCode' in body ? body : { exitCode: 1, output: body };
  }
  const progress = stderrProgress();
  let outcome: VerbResult = {
    exitCode: 1,
    output: { error: { code: 'internal_error', message: 'the service closed the stream without a result' } },
  };
  let pending = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = present(lines.pop(), 'lines.pop()');
      for (const text of lines.filter(Boolean)) {
        const line = JSON.parse(text) as Line;
        if ('progress' in line) progress.update(line.progress.phase, line.progress.done, line.progress.total, line.progress.detail);
        else if ('result' in line) outcome = line.result;
        else outcome = { exitCode: 1, output: { error: line.error } };
      }
    }
  } finally {
    progress.stop();
  }
  return outcome;
}
