/** Operations behind the waitlist routes. */
import { VOCE_ATTESA_FIELDS } from '../generated/fragments.js';

export const attesaOperations = {
  AggiungiAttesa: `mutation AggiungiAttesa($input: VoceAttesaInput!) { aggiungiAttesa(input: $input) { ...VoceAttesaFields } } ${VOCE_ATTESA_FIELDS}`,
  ListaAttesa: `query ListaAttesa { listaAttesa { ...VoceAttesaFields } } ${VOCE_ATTESA_FIELDS}`,
  GetVoceAttesa: `query GetVoceAttesa($id: ID!) { voceAttesa(id: $id) { ...VoceAttesaFields } } ${VOCE_ATTESA_FIELDS}`,
  AvvisaAttesa: `mutation AvvisaAttesa($id: ID!) { avvisaAttesa(id: $id) { ...VoceAttesaFields } } ${VOCE_ATTESA_FIELDS}`,
  SiediAttesa: `mutation SiediAttesa($id: ID!, $input: SiediAttesaInput) { siediAttesa(id: $id, input: $input) { ...VoceAttesaFields } } ${VOCE_ATTESA_FIELDS}`,
  AnnullaAttesa: `mutation AnnullaAttesa($id: ID!, $input: AnnullaAttesaInput) { annullaAttesa(id: $id, input: $input) { ...VoceAttesaFields } } ${VOCE_ATTESA_FIELDS}`,
} as const;
