// e2e setup: a test fails when an event it received (bus, NATS or GraphQL subscription) does not match the
// AsyncAPI document; the collectors record mismatches (gateway/test/support/event-contract.ts).
import { afterAll, afterEach, expect } from 'vitest';
import { takeViolations } from '../../gateway/test/support/event-contract.js';

const noViolations = () =>
  expect(takeViolations(), 'events received that do not match GET /asyncapi.json').toEqual([]);

afterEach(noViolations);
afterAll(noViolations);
