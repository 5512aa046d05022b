/** Operations behind the booking-channel routes. */
import { CANALE_CREATO_FIELDS, CANALE_FIELDS, DELETE_CANALE_RESULT_FIELDS } from '../generated/fragments.js';

export const canaliOperations = {
  ListCanali: `query ListCanali { canali { ...CanaleFields } } ${CANALE_FIELDS}`,
  CreateCanale: `mutation CreateCanale($input: CanaleInput!) { createCanale(input: $input) { ...CanaleCreatoFields } } ${CANALE_CREATO_FIELDS}`,
  DeleteCanale: `mutation DeleteCanale($id: ID!) { deleteCanale(id: $id) { ...DeleteCanaleResultFields } } ${DELETE_CANALE_RESULT_FIELDS}`,
} as const;
