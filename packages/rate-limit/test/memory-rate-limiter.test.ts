import { describeRateLimiter } from './support/contract.js';
import { createMemoryRateLimiter } from '../src/memory-rate-limiter.js';

describeRateLimiter('memory', async (limits) => createMemoryRateLimiter(limits));
