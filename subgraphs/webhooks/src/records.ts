import type { StoredSecret } from './rules/rotation.js';

/** An endpoint (collection `webhooks`). Secrets never leave the subgraph, except a new one, once. */
export interface WebhookRecord {
  id: string;
  url: string;
  /** CloudEvents types it gets; empty: all. */
  eventi: string[];
  attivo: boolean;
  /** The current secret first; a rotated-out one signs until its `scadeIl`. */
  segreti: StoredSecret[];
  /** Its first failed attempt since its last success or since it was switched on; null while nothing fails. */
  inErroreDa: string | null;
  ultimaConsegnaAt: string | null;
  /** When it was switched off for failing (null: active, or switched off by an administrator). */
  disattivatoAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export type DeliveryState = 'in_attesa' | 'consegnata' | 'fallita';

/** One attempt to deliver. */
export interface AttemptRecord {
  at: string;
  statusCode: number | null;
  durataMs: number;
  errore: string | null;
  /** When the next attempt is due after this one (null: none, delivered or failed). */
  prossimoTentativoAt: string | null;
}

/** One event to one endpoint (collection `webhooks_consegne`): its id is derived from both, so made once. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventoId: string;
  tipo: string;
  /** The CloudEvent JSON exactly as sent every time (the signature covers these bytes). */
  corpo: string;
  stato: DeliveryState;
  tentativi: AttemptRecord[];
  /** Attempts before the current series (a resend starts a new one): the retry schedule counts from here. */
  inizioSerie: number;
  prossimoTentativoAt: string | null;
  consegnataAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}
