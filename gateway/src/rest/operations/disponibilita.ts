/** The operation behind GET /api/disponibilita (every bookable time of a day for a party). */
export const disponibilitaOperations = {
  Disponibilita: `query Disponibilita(
    $data: LocalDate, $date: LocalDate, $coperti: Int, $covers: Int, $ora: LocalTime, $time: LocalTime,
    $salaId: ID, $roomId: ID, $limite: Int, $limit: Int
  ) {
    disponibilita(
      data: $data, date: $date, coperti: $coperti, covers: $covers, ora: $ora, time: $time,
      salaId: $salaId, roomId: $roomId, limite: $limite, limit: $limit
    ) {
      data date coperti covers
      orari { ora time dataOra bookingDate durataMinuti durationMinutes ridotto shortened tableIds combinationId }
      times { ora time dataOra bookingDate durataMinuti durationMinutes ridotto shortened tableIds combinationId }
    }
  }`,
} as const;
