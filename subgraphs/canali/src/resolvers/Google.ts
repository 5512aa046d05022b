import type {
  GooglePrenotazioneResolvers,
  IntegrazioneGoogleResolvers,
} from '../generated/resolvers-types.js';

/** A restaurant's link to Reserve with Google: its channel under both names. */
export const IntegrazioneGoogle: IntegrazioneGoogleResolvers = {
  merchantId: (link) => link.id,
  canaleId: (link) => link.channelId,
  channelId: (link) => link.channelId,
};

export const GooglePrenotazione: GooglePrenotazioneResolvers = {
  token: (record) => record.id,
};
