// The ceiling for /flags: a bare node:http server that reads the request body and answers a fixed JSON body of the
// same size. One process, no framework: what Node itself costs per request on this machine.
import fs from 'node:fs';
import http from 'node:http';

const [port, bodyFile] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
http
  .createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      response.writeHead(200, headers);
      response.end(body);
    });
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
