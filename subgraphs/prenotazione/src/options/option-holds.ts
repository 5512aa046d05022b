import type { TableClaims } from '../seating/table-claims.js';
import type { OpzioneRecord } from './opzione-record.js';

/** The claim revision of an option's holds (the booking made from it claims at revision 1 and up). */
export const OPTION_CLAIM_REV = 0;

/** Removes an option's own holds (best effort: once used or released, they are stale anyway). */
export async function releaseOptionHolds(claims: TableClaims, option: OpzioneRecord): Promise<void> {
  await claims
    .release({ id: option.id, rev: OPTION_CLAIM_REV, tableIds: option.tableIds }, option.claimId)
    .catch(() => {});
}
