/** The operation behind GET /api/disponibilita (every bookable time of a day for a party). */
import { DISPONIBILITA_GIORNO_FIELDS } from '../generated/fragments.js';

export const disponibilitaOperations = {
  Disponibilita: `query Disponibilita(
    $data: LocalDate, $date: LocalDate, $coperti: Int, $covers: Int, $ora: LocalTime, $time: LocalTime,
    $salaId: ID, $roomId: ID, $limite: Int, $limit: Int
  ) {
    disponibilita(
      data: $data, date: $date, coperti: $coperti, covers: $covers, ora: $ora, time: $time,
      salaId: $salaId, roomId: $roomId, limite: $limite, limit: $limit
    ) {
      ...DisponibilitaGiornoFields
    }
  } ${DISPONIBILITA_GIORNO_FIELDS}`,
} as const;
