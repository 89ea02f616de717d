// The ceiling for /flags: a bare Fastify route answering a fixed JSON body of the same size.
import fs from 'node:fs';
import Fastify from 'fastify';

const [port, bodyFile] = process.argv.slice(2);
const body = JSON.parse(fs.readFileSync(bodyFile, 'utf8'));
const app = Fastify();
app.post('/flags/', async () => body);
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
