import type { OpzioneResolvers } from '../generated/resolvers-types.js';

export const Opzione: OpzioneResolvers = {
  assignment: (o) => o.assegnazione,
};
