import type { Viewer } from '@coperto/auth';
import type { RequestTrace } from '../http/request-id.js';

/** Per-request context of the gateway: the verified viewer and what is forwarded to the subgraphs. */
export interface GatewayContext {
  viewer: Viewer;
  /** The caller's Authorization header, forwarded unchanged to every subgraph. */
  authorization: string;
  requestId: string;
  /** What the access line reports (absent for operations run outside an HTTP request). */
  trace?: RequestTrace;
}
