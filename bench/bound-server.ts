// The bound of one process for /flags (run by flags.mjs through tsx): the ceiling's bare node:http server
// (ceiling-server.mjs) that also parses each request and evaluates the 50 flags of the benchmark for its distinct id
// with the flag engine, persons held in memory (no database), before it answers the same fixed body (no answer to
// build). Whatever a /flags server does besides evaluating every flag can only make it slower than this.
import fs from 'node:fs';
import http from 'node:http';
import { compileFlags } from '@service/flag-engine';
import { contexts, definitions } from './flag-inputs';

const [port, bodyFile] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile!);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
const compiled = compileFlags(definitions);
const persons = new Map(contexts.map((c) => [c.distinctId, c.personProperties]));

http
  .createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.once('end', () => {
      const distinctId = String(JSON.parse(text).distinct_id);
      compiled.evaluateAll({ distinctId, personProperties: persons.get(distinctId) ?? {} });
      response.writeHead(200, headers);
      response.end(body);
    });
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
