/** Tables joined for a larger party, as stored in the `combinazioni` collection. */
export interface CombinazioneRecord {
  id: string;
  nome: string;
  /** 2..8 distinct tables of one room (fewer only after a table was deleted: then it is inactive). */
  tableIds: string[];
  salaId: string | null;
  capacitaMin: number;
  capacitaMax: number;
  attivo: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** How many tables a combination joins. */
export const COMBINAZIONE_TABLES = { min: 2, max: 8 } as const;

/** A combination's party range (capacitaMin defaults to 1); the same bound as the availability check's party. */
export const COMBINAZIONE_COVERS = { min: 1, max: 1000, defaultMin: 1 } as const;
