/** Operations behind the room routes. */
import { DELETE_SALA_RESULT_FIELDS, SALA_FIELDS } from '../generated/fragments.js';

export const saleOperations = {
  ListSale: `query ListSale { sale { ...SalaFields } } ${SALA_FIELDS}`,
  GetSala: `query GetSala($id: ID!) { sala(id: $id) { ...SalaFields } } ${SALA_FIELDS}`,
  CreateSala: `mutation CreateSala($input: SalaInput!) { createSala(input: $input) { ...SalaFields } } ${SALA_FIELDS}`,
  UpdateSala: `mutation UpdateSala($id: ID!, $input: SalaPatch!) { updateSala(id: $id, input: $input) { ...SalaFields } } ${SALA_FIELDS}`,
  DeleteSala: `mutation DeleteSala($id: ID!) { deleteSala(id: $id) { ...DeleteSalaResultFields } } ${DELETE_SALA_RESULT_FIELDS}`,
} as const;
