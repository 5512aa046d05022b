/**
 * The load generator's process (never the process under test): runs one job at a time sent by load.ts over
 * IPC and answers { id, result } or { id, error }.
 */
import { runHttp } from './http-load.js';
import type { Job, JobResult } from './load-types.js';
import { runMongoInserts } from './mongo-load.js';
import { runPush } from './push-load.js';

function run(job: Job): Promise<JobResult> {
  switch (job.kind) {
    case 'http':
      return runHttp(job);
    case 'mongo-insert':
      return runMongoInserts(job);
    case 'push':
      return runPush(job);
  }
}

process.on('message', (message: { id: number; job: Job }) => {
  run(message.job).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: unknown) => process.send?.({ id: message.id, error: (error as Error).stack ?? String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
