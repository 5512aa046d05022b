/** A room as stored in the `sale` collection. */
export interface SalaRecord {
  id: string;
  codice: string;
  descrizione: string | null;
  width: number;
  height: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export const DEFAULT_WIDTH = 800;
export const DEFAULT_HEIGHT = 600;

/** The English `name` alias: the description, or the code when there is none. */
export function salaName(sala: Pick<SalaRecord, 'codice' | 'descrizione'>): string {
  return sala.descrizione && sala.descrizione.trim() !== '' ? sala.descrizione : sala.codice;
}

/** Codes are trimmed and upper-cased on creation (and on update). */
export function normalizeCodice(codice: string): string {
  return codice.trim().toUpperCase();
}
