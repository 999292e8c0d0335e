// The baseline: a bare Fastify route answering a small JSON body, no database.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT ?? 3302), host: '127.0.0.1' });
console.log('bare server ready');
