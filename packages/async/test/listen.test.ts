import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen } from '../src/index.js';

describe('listen', () => {
  it('resolves to the port bound, and rejects when the port is taken', async () => {
    const first = createServer();
    const port = await listen(first, 0, '127.0.0.1');
    expect(port).toBeGreaterThan(0);
    const second = createServer();
    await expect(listen(second, port, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
    first.close();
  });
});
