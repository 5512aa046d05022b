// One scheduler process of the kill storm (kill-storm.ts): polls until killed, appending each job's effect id to
// the effects file before returning (the effect), so a kill between the effect and the done mark shows as a repeat.
import { appendFileSync } from 'node:fs';
import { connectMongoStore, openEmbeddedStore } from '@coperto/store';
import { Scheduler } from '../src/index.js';

const [kind, target, database, effects, owner] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store =
  kind === 'embedded'
    ? await openEmbeddedStore({ directory: target })
    : await connectMongoStore({ url: target, database });
const scheduler = new Scheduler({
  store,
  collection: 'storm_jobs',
  owner,
  leaseMs: 2000,
  batchSize: 50,
  pollMs: 200,
  handler: async (job) => {
    appendFileSync(effects, `${job.effectId} ${job.key} ${owner}\n`);
    return { outcome: 'done' };
  },
});
scheduler.start();
process.stdout.write('started\n');
