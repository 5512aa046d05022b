/** The fields of one offered time, both name forms (the one list `orari` and `times` answer). */
const ORARIO_DISPONIBILE_FIELDS = /* GraphQL */ `
  fragment OrarioDisponibileFields on OrarioDisponibile {
    ora
    time
    dataOra
    bookingDate
    durataMinuti
    durationMinutes
    ridotto
    shortened
    postiLiberi
    spotsOpen
    tableIds
    combinationId
  }
`;

/** The operation behind GET /api/disponibilita (every bookable time of a day for a party). */
export const disponibilitaOperations = {
  Disponibilita: `query Disponibilita(
    $data: String, $date: String, $coperti: Int, $covers: Int, $ora: String, $time: String,
    $salaId: ID, $roomId: ID, $limite: Int, $limit: Int
  ) {
    disponibilita(
      data: $data, date: $date, coperti: $coperti, covers: $covers, ora: $ora, time: $time,
      salaId: $salaId, roomId: $roomId, limite: $limite, limit: $limit
    ) {
      data date coperti covers postiTotali spotsTotal
      orari { ...OrarioDisponibileFields }
      times { ...OrarioDisponibileFields }
    }
  } ${ORARIO_DISPONIBILE_FIELDS}`,
} as const;
