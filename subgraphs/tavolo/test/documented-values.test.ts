import { describe, expect, it } from 'vitest';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { isInputObjectType } from 'graphql';
import { DURATA_MEDIA_PASTO_MINUTES } from '../src/availability/availability-service.js';
import { typeDefs } from '../src/subgraph.js';
import { LOCK_TTL_SECONDS } from '../src/tables/tavolo-record.js';

// schema.graphql cannot import the constants: its descriptions must quote them.
const schema = buildSubgraphSchema([{ typeDefs }]);

function description(type: string, field: string): string | undefined {
  const input = schema.getType(type);
  return isInputObjectType(input) ? (input.getFields()[field]?.description ?? undefined) : undefined;
}

describe("schema.graphql's descriptions of tavolo's bounds", () => {
  it('LockInput.ttl quotes LOCK_TTL_SECONDS', () => {
    const { min, max, default: fallback } = LOCK_TTL_SECONDS;
    expect(description('LockInput', 'ttl')).toBe(`Seconds, ${min}..${max}, default ${fallback}.`);
  });

  it('DisponibilitaInput.durataMediaPasto quotes DURATA_MEDIA_PASTO_MINUTES', () => {
    const { min, max, default: fallback } = DURATA_MEDIA_PASTO_MINUTES;
    expect(description('DisponibilitaInput', 'durataMediaPasto')).toBe(
      `Minutes, ${min}..${max}, default the turn time of numeroPersone (capacity's turnTimes, else its defaultMealMinutes, ${fallback} unless changed).`,
    );
  });
});
