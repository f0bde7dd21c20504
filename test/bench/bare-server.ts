import Fastify from 'fastify';

/** The yardstick of bench:screen: a bare Fastify POST route answering a fixed JSON body of a given size. */
const size = Number(process.env.BODY_BYTES ?? 2000);
const body = { padding: 'x'.repeat(Math.max(0, size - 14)) };
const app = Fastify({ logger: false });
app.post('/v2/screen', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
