import type { Viewer } from '@coperto/auth';
import { ForbiddenError } from '@coperto/errors';

/** Capacity settings are read by all staff and changed by administrators only (403 FORBIDDEN otherwise). */
export function requireAdmin(viewer: Viewer): void {
  if (!viewer.isAdmin) throw new ForbiddenError('Only an administrator can change the capacity settings');
}
