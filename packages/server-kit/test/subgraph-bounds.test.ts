import { describe, expect, it } from 'vitest';
import { createMetrics } from '@coperto/metrics';
import { reportSubgraphBounds } from '../src/subgraph-bounds.js';
import type { Subgraph } from '../src/subgraph.js';

describe('subgraph bounds in the metrics', () => {
  it("reports each subgraph's structures under <subgraph>_<name>, read at each scrape", async () => {
    const metrics = createMetrics({ service: 'tavolo', defaultMetrics: false });
    let entries = 1;
    const tavolo = {
      name: 'tavolo',
      bounded: () => ({ table_directories: { entries, capacity: 1000, evictions: 2 } }),
    } as unknown as Subgraph<unknown>;
    const sala = { name: 'sala' } as unknown as Subgraph<unknown>;
    reportSubgraphBounds(metrics, [tavolo, sala]);
    entries = 7;
    const body = (await metrics.scrape()).body;
    expect(body).toMatch(/bounded_state_entries\{[^}]*structure="tavolo_table_directories"[^}]*\} 7/);
    expect(body).toMatch(/bounded_state_evictions_total\{[^}]*structure="tavolo_table_directories"[^}]*\} 2/);
    expect(body).not.toContain('structure="sala_');
  });
});
