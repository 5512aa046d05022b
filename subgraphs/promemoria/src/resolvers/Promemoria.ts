import type { PromemoriaResolvers } from '../generated/resolvers-types.js';

export const Promemoria: PromemoriaResolvers = {
  orePrima: (r) => r.hoursBefore,
  stato: (r) => r.status,
  motivo: (r) => r.reason,
};
