import type { Metrics } from '@coperto/metrics';
import type { Subgraph } from './subgraph.js';

/**
 * Reports the per-tenant state the subgraphs of this process keep (`Subgraph.bounded`) as
 * `bounded_state_*{structure="<subgraph>_<name>"}`: the subgraph's own process in distributed mode, the
 * gateway's in embedded mode, under the same names.
 */
export function reportSubgraphBounds(metrics: Metrics, subgraphs: readonly Subgraph<unknown>[]): void {
  for (const subgraph of subgraphs) {
    const read = subgraph.bounded;
    if (!read) continue;
    for (const name of Object.keys(read())) {
      metrics.bounded(
        `${subgraph.name}_${name}`,
        () => read()[name] ?? { entries: 0, capacity: 0, evictions: 0 },
      );
    }
  }
}
