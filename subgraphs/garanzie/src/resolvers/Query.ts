import { requireAdmin } from '@coperto/auth';
import { ForbiddenError } from '@coperto/errors';
import type { QueryResolvers } from '../generated/resolvers-types.js';

export const Query: QueryResolvers = {
  politicaGaranzie: (_, __, context) => {
    requireAdmin(context.viewer, 'read the guarantee policy');
    return context.policy().get();
  },
  garanzieBloccate: (_, __, context) => {
    if (context.viewer.grant) throw new ForbiddenError('Stuck guarantees are for staff only');
    return context.store.stuck();
  },
};
