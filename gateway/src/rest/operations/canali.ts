/** Operations behind the booking-channel routes. */
import { CANALE_CREATO_FIELDS, CANALE_FIELDS } from '../generated/fragments.js';

export const canaliOperations = {
  ListCanali: `query ListCanali { canali { ...CanaleFields } } ${CANALE_FIELDS}`,
  CreateCanale: `mutation CreateCanale($input: CanaleInput!) { createCanale(input: $input) { ...CanaleCreatoFields } } ${CANALE_CREATO_FIELDS}`,
  DeleteCanale: `mutation DeleteCanale($id: ID!) { deleteCanale(id: $id) { id deleted } }`,
} as const;
