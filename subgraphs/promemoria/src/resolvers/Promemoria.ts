import type {
  ImpostazioniPromemoriaResolvers,
  PromemoriaResolvers,
  RegolaPromemoriaResolvers,
} from '../generated/resolvers-types.js';

export const Promemoria: PromemoriaResolvers = {
  orePrima: (r) => r.hoursBefore,
  stato: (r) => r.status,
  motivo: (r) => r.reason,
};

export const RegolaPromemoria: RegolaPromemoriaResolvers = {
  orePrima: (r) => r.hoursBefore,
};

export const ImpostazioniPromemoria: ImpostazioniPromemoriaResolvers = {
  promemoria: (s) => [...s.rules],
  reminders: (s) => [...s.rules],
};
