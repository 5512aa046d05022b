import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeDocumentStore } from '../src/contract.js';
import { openEmbeddedStore } from '../src/index.js';

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

describeDocumentStore('embedded', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'coperto-store-'));
  directories.push(directory);
  return await openEmbeddedStore({ directory });
});
