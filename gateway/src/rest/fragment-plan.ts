/**
 * The REST facade's named fragments (what each REST answer, and so the OpenAPI document's response schemas and the
 * read cache's room and table fields, holds) as a plan over the GraphQL schema: `pnpm codegen`
 * (scripts/codegen-rest-fragments.ts) writes them to generated/fragments.ts from the supergraph's API schema.
 *
 * A fragment selects every field of its type, in the schema's order, except the ones its plan leaves out, each
 * group with its reason. A field added to a type reaches REST and OpenAPI with no edit here; leaving one out is
 * an entry here. Every object-typed field must say how it is selected (`objects`: a fragment of this plan, or a
 * nested selection planned the same way) or be left out. A name here that the schema lacks fails the generation,
 * so the plan cannot rot.
 */

/** Fields of a type a selection leaves out, for one reason. */
export interface LeftOut {
  readonly fields: readonly string[];
  readonly reason: string;
}

/** How the fields of one type are selected. */
export interface SelectionPlan {
  /** The fields not selected, by reason. */
  readonly leftOut?: readonly LeftOut[];
  /** How each object-typed field is selected: the name of a fragment of this plan, or a nested selection. */
  readonly objects?: Readonly<Record<string, string | SelectionPlan>>;
}

/** One named fragment. */
export interface FragmentPlan extends SelectionPlan {
  /** The object type it is on. */
  readonly type: string;
  /** A fragment of the same type spread first: this one adds the fields that one leaves out. */
  readonly extends?: string;
  /**
   * Only spread by other fragments: written out in the constant of the one fragment that spreads it, with no
   * constant of its own. Every other fragment is a constant (`TavoloFields`: `TAVOLO_FIELDS`) with the inner
   * fragments it needs, and the constants of the others it spreads.
   */
  readonly inner?: true;
}

/** What every booking fragment leaves out: another route or GraphQL reads it. */
const BOOKING_READ_ELSEWHERE: readonly LeftOut[] = [
  { fields: ['ospite', 'guest'], reason: 'guests are read by GET /api/ospiti' },
  { fields: ['tavoli'], reason: 'the tables are read by tableIds' },
  {
    fields: ['effectiveDurationMinutes', 'endsAt', 'promemoria', 'reminders'],
    reason: 'the held window and the reminders are read over GraphQL',
  },
];

/**
 * The fragments by name; generated/fragments.ts declares their constants in this order, each after the ones it
 * spreads.
 */
export const FRAGMENT_PLAN: Readonly<Record<string, FragmentPlan>> = {
  LockFields: { type: 'TableLock' },
  /**
   * A table as every table route answers it. The read cache stores a table's fields by this list
   * (graphql/read-cache/cacheable-fields.ts), so a field another subgraph resolves (it changes without a table
   * write) is left out here: gateway/test/rest-fragments.test.ts fails otherwise. The same for SalaFields.
   */
  TavoloFields: {
    type: 'Tavolo',
    leftOut: [
      { fields: ['prenotazioni'], reason: "a table's bookings are read by GET /api/prenotazioni" },
      { fields: ['storico', 'history'], reason: 'GET /api/tavoli/:id/storico' },
      { fields: ['sala'], reason: 'the room is read by roomId' },
    ],
    objects: { lock: 'LockFields' },
  },
  DeleteTavoloResultFields: { type: 'DeleteTavoloResult' },
  UnlockResultFields: { type: 'UnlockResult' },
  CombinazioneFields: {
    type: 'Combinazione',
    leftOut: [{ fields: ['tavoli'], reason: 'the tables are read by tableIds' }],
  },
  DeleteCombinazioneResultFields: { type: 'DeleteCombinazioneResult' },
  /** The tables and combinations free for a party (POST /api/tavoli/verifica-disponibilita). */
  DisponibilitaFields: {
    type: 'Disponibilita',
    objects: {
      tavoliDisponibili: 'TavoloFields',
      availableTables: 'TavoloFields',
      combinazioniDisponibili: 'CombinazioneFields',
      availableCombinations: 'CombinazioneFields',
    },
  },
  /** A room as every room route answers it (and the read cache's room fields, as for TavoloFields). */
  SalaFields: {
    type: 'Sala',
    leftOut: [{ fields: ['tavoli'], reason: "a room's tables are read by GET /api/tavoli?roomId=" }],
  },
  DeleteSalaResultFields: { type: 'DeleteSalaResult' },
  /** A guarantee as staff read it (the stuck list, a refund); a booking's adds what its payment is taken with. */
  GaranziaFields: {
    type: 'Garanzia',
    leftOut: [
      {
        fields: ['clientSecret', 'chiavePubblicabile', 'publishableKey', 'contoStripe', 'stripeAccount'],
        reason: "what a payment is taken with is only in a booking's answer (GaranziaPrenotazioneFields)",
      },
    ],
  },
  PrenotazioneFields: {
    type: 'Prenotazione',
    leftOut: [
      ...BOOKING_READ_ELSEWHERE,
      {
        fields: ['gestione', 'manage'],
        reason: 'the guest token is only in the answer to the create (PrenotazioneCreataFields)',
      },
    ],
    objects: {
      canale: {},
      channel: {},
      garanzia: 'GaranziaPrenotazioneFields',
      guarantee: 'GaranziaPrenotazioneFields',
    },
  },
  /** A booking's guarantee: a guarantee as staff read it, and what its payment is taken with. */
  GaranziaPrenotazioneFields: { type: 'Garanzia', extends: 'GaranziaFields', inner: true },
  GestionePrenotazioneFields: { type: 'GestionePrenotazione' },
  /** A new booking (POST /api/prenotazioni): the booking with the guest token of its manage link. */
  PrenotazioneCreataFields: {
    type: 'Prenotazione',
    extends: 'PrenotazioneFields',
    leftOut: BOOKING_READ_ELSEWHERE,
    objects: { gestione: 'GestionePrenotazioneFields', manage: 'GestionePrenotazioneFields' },
  },
  /** A page of the offline sync (GET /api/prenotazioni/sync). */
  SyncPageFields: { type: 'SyncPage', objects: { items: 'PrenotazioneFields' } },
  OpzioneFields: { type: 'Opzione' },
  ReleaseOpzioneResultFields: { type: 'ReleaseOpzioneResult' },
  /** The bookable times of a day for a party (GET /api/disponibilita). */
  DisponibilitaGiornoFields: {
    type: 'DisponibilitaGiorno',
    objects: { orari: 'OrarioDisponibileFields', times: 'OrarioDisponibileFields' },
  },
  OrarioDisponibileFields: { type: 'OrarioDisponibile', inner: true },
  BatchUploadFields: {
    type: 'BatchUpload',
    leftOut: [{ fields: ['id'], reason: 'the batch is named by batchId (the seed’s name)' }],
    objects: {
      results: {
        leftOut: [{ fields: ['prenotazione'], reason: 'the booking is read by its id' }],
        objects: { error: {} },
      },
    },
  },
  SlotConfigFields: {
    type: 'SlotConfig',
    objects: {
      openingHours: { objects: { intervals: {} } },
      turnTimes: {},
      promemoria: { leftOut: [{ fields: ['hoursBefore'], reason: 'the Italian field in its Italian form' }] },
      reminders: { leftOut: [{ fields: ['orePrima'], reason: 'the English field in its English form' }] },
    },
  },
  CapacitySlotFields: { type: 'CapacitySlot' },
  ProductionCategoryFields: { type: 'ProductionCategory' },
  DeleteProductionCategoryResultFields: { type: 'DeleteProductionCategoryResult' },
  VoceAttesaFields: {
    type: 'VoceAttesa',
    leftOut: [{ fields: ['ospite', 'guest'], reason: 'guests are read by GET /api/ospiti' }],
  },
  CanaleFields: { type: 'Canale' },
  /** A new channel: the channel with its key, shown only in this answer. */
  CanaleCreatoFields: { type: 'CanaleCreato' },
  DeleteCanaleResultFields: { type: 'DeleteCanaleResult' },
  OspiteFields: {
    type: 'Ospite',
    leftOut: [{ fields: ['prenotazioni', 'bookings'], reason: 'GET /api/ospiti/:id/prenotazioni' }],
  },
  /** Two guests who may be one (GET /api/ospiti/duplicati). */
  CoppiaOspitiFields: { type: 'CoppiaOspiti', objects: { a: 'OspiteFields', b: 'OspiteFields' } },
  /** Everything kept about a guest (GET /api/ospiti/:id/esporta). */
  EsportazioneOspiteFields: {
    type: 'EsportazioneOspite',
    objects: { ospite: 'OspiteFields', prenotazioni: 'PrenotazioneFields', attese: 'AttesaEsportataFields' },
  },
  /** A waitlist entry in a guest's export. */
  AttesaEsportataFields: { type: 'AttesaEsportata', inner: true },
  PoliticaGaranzieFields: {
    type: 'PoliticaGaranzie',
    objects: {
      regole: 'RegolaGaranziaFields',
      rules: 'RegolaGaranziaFields',
      penali: 'PenaleGaranziaFields',
      penalties: 'PenaleGaranziaFields',
    },
  },
  RegolaGaranziaFields: { type: 'RegolaGaranzia', inner: true },
  PenaleGaranziaFields: { type: 'PenaleGaranzia', inner: true },
  EsitoEventoStripeFields: { type: 'EsitoEventoStripe' },
  WebhookFields: {
    type: 'Webhook',
    leftOut: [
      { fields: ['secret'], reason: 'only in the answers that make or rotate it (WebhookSegretoFields)' },
    ],
  },
  /** A webhook with its signing secret: the answers that make or rotate it. */
  WebhookSegretoFields: { type: 'Webhook', extends: 'WebhookFields' },
  ConsegnaFields: {
    type: 'ConsegnaWebhook',
    objects: { tentativi: 'TentativoFields', attempts: 'TentativoFields' },
  },
  TentativoFields: { type: 'TentativoWebhook', inner: true },
  IntegrazioneGoogleFields: { type: 'IntegrazioneGoogle' },
  CambioFields: { type: 'CambioStato' },
  ReportFields: {
    type: 'Report',
    objects: {
      servizi: 'ServizioFields',
      services: 'ServizioFields',
      perOra: 'CopertiOraFields',
      byHour: 'CopertiOraFields',
      turni: 'TurnoFields',
      turns: 'TurnoFields',
      totali: 'TotaliFields',
      totals: 'TotaliFields',
    },
  },
  ServizioFields: { type: 'ServizioReport', inner: true },
  CopertiOraFields: { type: 'CopertiOra', inner: true },
  TurnoFields: { type: 'TurnoReport', inner: true },
  TotaliFields: { type: 'TotaliReport', inner: true },
  TurnoSuggeritoFields: { type: 'TurnoSuggerito' },
};
