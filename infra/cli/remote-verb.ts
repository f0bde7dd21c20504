import { request } from 'node:http';
import { present } from '../../domain/shared/present.js';
import { NDJSON, stderrProgress, type ProgressLine } from './progress.js';
import type { ServiceFile } from './service-file.js';
import type { VerbResult } from './verbs.js';

type Line = ProgressLine | { result: VerbResult } | { error: { code: string; message: string } };

/** POSTs the verb to the service's CLI channel (its Unix socket) and answers the response as a stream. */
function post(running: ServiceFile, argv: readonly string[]): Promise<import('node:http').IncomingMessage> {
  const body = JSON.stringify({ argv });
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        socketPath: running.socket,
        path: '/admin/cli',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: NDJSON,
          'x-admin-token': running.token,
        },
      },
      resolve,
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** Sends a verb to the running service and draws its streamed progress on this terminal. */
export async function runRemoteVerb(running: ServiceFile, argv: readonly string[]): Promise<VerbResult> {
  const response = await post(running, argv);
  const decoder = new TextDecoder();
  if (!(response.headers['content-type'] ?? '').startsWith(NDJSON)) {
    let text = '';
    for await (const chunk of response) text += decoder.decode(chunk as Buffer, { stream: true });
    const body = JSON.parse(text) as VerbResult | { error: unknown };
    return 'exitCode' in body ? body : { exitCode: 1, output: body };
  }
  const progress = stderrProgress();
  let outcome: VerbResult = {
    exitCode: 1,
    output: { error: { code: 'internal_error', message: 'the service closed the stream without a result' } },
  };
  let pending = '';
  try {
    for await (const chunk of response) {
      pending += decoder.decode(chunk as Buffer, { stream: true });
      const lines = pending.split('\n');
      pending = present(lines.pop(), 'split always returns at least one part');
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
