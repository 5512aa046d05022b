import { ForbiddenError } from '@coperto/errors';
import type { Viewer } from './viewer.js';

/** Throws ForbiddenError (403, code FORBIDDEN) unless the viewer is an administrator of its tenant. */
export function requireAdmin(viewer: Viewer): void {
  if (!viewer.isAdmin) throw new ForbiddenError('Administrator role required');
}
