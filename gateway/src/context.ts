import type { Viewer } from '@coperto/auth';

/** Per-request context of the gateway: the verified viewer and what is forwarded to the subgraphs. */
export interface GatewayContext {
  viewer: Viewer;
  /** The caller's Authorization header, forwarded unchanged to every subgraph. */
  authorization: string;
  requestId: string;
}
