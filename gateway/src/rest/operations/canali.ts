/** Operations behind the booking-channel routes. */
const CANALE_FIELDS = /* GraphQL */ `
  fragment CanaleFields on Canale {
    id
    nome
    name
    origini
    origins
    createdAt
  }
`;

export const canaliOperations = {
  ListCanali: `query ListCanali { canali { ...CanaleFields } } ${CANALE_FIELDS}`,
  CreateCanale: `mutation CreateCanale($input: CanaleInput!) { createCanale(input: $input) { id nome name origini origins chiave key createdAt } }`,
  DeleteCanale: `mutation DeleteCanale($id: ID!) { deleteCanale(id: $id) { id deleted } }`,
} as const;
