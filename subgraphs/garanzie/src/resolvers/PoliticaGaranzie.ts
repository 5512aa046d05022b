import type {
  PenaleGaranziaResolvers,
  PoliticaGaranzieResolvers,
  RegolaGaranziaResolvers,
} from '../generated/resolvers-types.js';

export const PoliticaGaranzie: PoliticaGaranzieResolvers = {
  rules: (p) => p.regole,
  dueMinutes: (p) => p.scadenzaMinuti,
  penalties: (p) => p.penali,
  noShowPercent: (p) => p.percentualeNoShow,
};

export const RegolaGaranzia: RegolaGaranziaResolvers = {
  type: (r) => r.tipo,
  minCovers: (r) => r.minCoperti,
  weekdays: (r) => r.giorni,
  from: (r) => r.dalle,
  to: (r) => r.alle,
  amountPerCover: (r) => r.importoPerCoperto,
  currency: (r) => r.valuta,
};

export const PenaleGaranzia: PenaleGaranziaResolvers = {
  minHours: (p) => p.oreAlmeno,
  percent: (p) => p.percentuale,
};
