import { ForbiddenError } from '@coperto/errors';
import type { Viewer } from './viewer.js';

/**
 * Throws ForbiddenError (403, code FORBIDDEN: "Only an administrator can <action>") unless the viewer is an
 * administrator of its tenant.
 */
export function requireAdmin(viewer: Viewer, action: string): void {
  if (!viewer.isAdmin) throw new ForbiddenError(`Only an administrator can ${action}`);
}
