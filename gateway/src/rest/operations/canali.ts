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

/** A new channel: the channel with its key, shown only in this answer. */
const CANALE_CREATO_FIELDS = /* GraphQL */ `
  fragment CanaleCreatoFields on CanaleCreato {
    id
    nome
    name
    origini
    origins
    chiave
    key
    createdAt
  }
`;

export const canaliOperations = {
  ListCanali: `query ListCanali { canali { ...CanaleFields } } ${CANALE_FIELDS}`,
  CreateCanale: `mutation CreateCanale($input: CanaleInput!) { createCanale(input: $input) { ...CanaleCreatoFields } } ${CANALE_CREATO_FIELDS}`,
  DeleteCanale: `mutation DeleteCanale($id: ID!) { deleteCanale(id: $id) { id deleted } }`,
} as const;
