export { sleep, withTimeout } from './timeout.js';
export { createSingleFlight, type SingleFlight } from './single-flight.js';
export { createKeptLoads, type KeptLoads, type KeptLoadsOptions } from './kept-loads.js';
export { listen } from './listen.js';
export type { BoundedStats } from './bounded-stats.js';
export { mapWithConcurrency } from './concurrency.js';
