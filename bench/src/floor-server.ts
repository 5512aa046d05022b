/**
 * The floor for scenario 1: a bare node:http server (its own process) that answers every request with the same
 * JSON bytes from memory. `node --import tsx floor-server.ts <port> <body file>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, file] = process.argv.slice(2);
if (!port || !file) throw new Error('usage: floor-server.ts <port> <body file>');
const body = readFileSync(file);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(port), '127.0.0.1');
