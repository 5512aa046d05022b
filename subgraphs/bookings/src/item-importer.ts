import { findAppError } from '@coperto/errors';
import type { SubgraphClient } from '@coperto/server-kit';
import { prepareItem } from './batch-item.js';
import type { BatchItemError, BatchItemResult } from './batch-record.js';
import {
  BatchCreatePrenotazioneDocument,
  BatchImportPrenotazioneDocument,
  type BatchCreatePrenotazioneMutation,
} from './generated/prenotazione-calls.js';

type Created = BatchCreatePrenotazioneMutation['createPrenotazione'];

/**
 * Turns one batch item into a booking through prenotazione's GraphQL API, with the caller's token. Never
 * throws: whatever goes wrong is this item's `failed` result with the error a single creation would answer.
 */
export class ItemImporter {
  constructor(private readonly deps: { subgraphs: SubgraphClient; authorization: string }) {}

  async import(item: unknown, index: number): Promise<BatchItemResult> {
    const prepared = prepareItem(item);
    const externalId = prepared.ok ? prepared.externalId : externalIdOf(item);
    if (!prepared.ok) {
      return failed(index, externalId, {
        code: 'VALIDATION_FAILED',
        message: `Invalid item: ${prepared.issues.map((i) => `${i.field} ${i.message}`).join('; ')}`,
        details: { fields: prepared.issues },
      });
    }
    try {
      if (externalId === null) {
        const { createPrenotazione } = await this.deps.subgraphs.request(
          'prenotazione',
          BatchCreatePrenotazioneDocument,
          { input: prepared.input },
          this.deps.authorization,
        );
        return succeeded(index, 'created', externalId, createPrenotazione);
      }
      const { importPrenotazione } = await this.deps.subgraphs.request(
        'prenotazione',
        BatchImportPrenotazioneDocument,
        { input: prepared.input },
        this.deps.authorization,
      );
      return succeeded(index, importPrenotazione.status, externalId, importPrenotazione.prenotazione);
    } catch (error) {
      return failed(index, externalId, itemError(error));
    }
  }
}

/** The error of one item: a coded error keeps its code, message and details; anything else is INTERNAL. */
export function itemError(error: unknown): BatchItemError {
  const appError = findAppError(error);
  if (!appError) return { code: 'INTERNAL', message: 'Internal server error', details: null };
  return { code: appError.code, message: appError.message, details: appError.details ?? null };
}

function succeeded(
  index: number,
  status: 'created' | 'duplicate',
  externalId: string | null,
  prenotazione: Created,
): BatchItemResult {
  return { index, status, id: prenotazione.id, codice: prenotazione.codice, externalId, error: null };
}

function failed(index: number, externalId: string | null, error: BatchItemError): BatchItemResult {
  return { index, status: 'failed', id: null, codice: null, externalId, error };
}

/** The item's externalId when it is a string (reported back even when the item failed). */
function externalIdOf(item: unknown): string | null {
  const value =
    typeof item === 'object' && item !== null ? (item as { externalId?: unknown }).externalId : null;
  return typeof value === 'string' ? value : null;
}
