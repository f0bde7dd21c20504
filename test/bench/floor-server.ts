import Fastify from 'fastify';
import { pino } from 'pino';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The floor of bench:screen: the least a durable, charged screen must do, on the same HTTP framework and
 * nothing else, so a run shows how close to the bare route any such service could come on its machine.
 * Per call: the API key hashed and looked up, the body parsed and validated, a verdict looked up, the
 * balance checked and lowered, the charge appended to a file opened O_DSYNC (the calls that arrive while
 * a write is in flight go out together in the next: group commit) and answered once durable, a request line
 * at `info`, a JSON answer of the screen's size. None of what the service adds: no event log, ledger
 * periods or idempotency keys, no read models or check history, no metrics, correlation or repeated-key check.
 */
const KEY = process.env.KEY ?? '';
const size = Number(process.env.BODY_BYTES ?? 1000);
const accounts = new Map([[createHash('sha256').update(KEY).digest('hex'), { userId: 'floor-user', balanceMicros: 1e15 }]]);
// Empty: the floor pays for a verdict's lookup, and answers `no_data` as the service does without data.
const verdicts = new Map<string, string>();
const dir = await mkdtemp(join(tmpdir(), 'bench-floor-'));
const file = await open(join(dir, 'charges.log'), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_DSYNC);

let waiting: { record: Buffer; durable: () => void }[] = [];
let writing = false;
async function writeRounds(): Promise<void> {
  writing = true;
  while (waiting.length > 0) {
    const round = waiting;
    waiting = [];
    await file.write(Buffer.concat(round.map((entry) => entry.record)));
    for (const entry of round) entry.durable();
  }
  writing = false;
}
const appendDurably = (record: string) =>
  new Promise<void>((durable) => {
    waiting.push({ record: Buffer.from(`${record}\n`), durable });
    if (!writing) void writeRounds();
  });

const app = Fastify({
  loggerInstance: pino({ level: 'info', timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ fd: 2, sync: false })),
  disableRequestLogging: true,
});
app.addHook('onResponse', (request, reply, done) => {
  request.log.info(
    { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime },
    'request completed',
  );
  done();
});
let sequence = 0;
// The answer padded to the screen's size (within a few bytes: ids and balances vary in length).
const unpadded = JSON.stringify({
  call_id: '18f0c0ffee0-0',
  address: '0x'.padEnd(42, '0'),
  network: 'ETH',
  risk: 'no_data',
  charged_micros: 100_000,
  balance_micros: 1e15,
  at: new Date().toISOString(),
  padding: '',
});
const padding = 'x'.repeat(Math.max(0, size - unpadded.length));
app.post(
  '/v2/screen',
  {
    schema: {
      body: {
        type: 'object',
        required: ['address', 'network'],
        additionalProperties: false,
        properties: { address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' }, network: { enum: ['ETH', 'BSC', 'TRON'] } },
      },
    },
  },
  async (request, reply) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const account = bearer === undefined ? undefined : accounts.get(createHash('sha256').update(bearer).digest('hex'));
    if (!account) return reply.code(401).send({ error: { code: 'invalid_api_key' } });
    const { address, network } = request.body as { address: string; network: string };
    const risk = verdicts.get(`${network}:${address.toLowerCase()}`) ?? 'no_data';
    if (account.balanceMicros < 100_000) return reply.code(402).send({ error: { code: 'insufficient_balance' } });
    account.balanceMicros -= 100_000;
    const callId = `${Date.now().toString(16)}-${(sequence++).toString(16)}`;
    const at = new Date().toISOString();
    await appendDurably(
      JSON.stringify({ type: 'CallCharged', callId, userId: account.userId, address, network, priceMicros: 100_000, at }),
    );
    return { call_id: callId, address, network, risk, charged_micros: 100_000, balance_micros: account.balanceMicros, at, padding };
  },
);
const close = async () => {
  await app.close();
  await file.close();
  await rm(dir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void close());
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
