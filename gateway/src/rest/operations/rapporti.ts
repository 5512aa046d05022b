/** Operations behind the report routes and a table's history (the rapporti subgraph). */
import { CAMBIO_FIELDS, REPORT_FIELDS, TURNO_SUGGERITO_FIELDS } from '../generated/fragments.js';

export const rapportiOperations = {
  /** A table's history with the route's $limite: its fields selected here (rest-fragments.test.ts says why). */
  StoricoTavolo: `query StoricoTavolo($id: ID!, $limite: Int) { tavolo(id: $id) { id storico(limite: $limite) { ...CambioFields } history(limite: $limite) { ...CambioFields } } } ${CAMBIO_FIELDS}`,
  Report: `query Report($dal: LocalDate!, $al: LocalDate!, $salaId: ID) { report(dal: $dal, al: $al, salaId: $salaId) { ...ReportFields } } ${REPORT_FIELDS}`,
  ReportCsv: `query ReportCsv($dal: LocalDate!, $al: LocalDate!, $salaId: ID) { reportCsv(dal: $dal, al: $al, salaId: $salaId) }`,
  TurniSuggeriti: `query TurniSuggeriti($dal: LocalDate!, $al: LocalDate!) { turniSuggeriti(dal: $dal, al: $al) { ...TurnoSuggeritoFields } } ${TURNO_SUGGERITO_FIELDS}`,
  ApplicaTurniSuggeriti: `mutation ApplicaTurniSuggeriti($dal: LocalDate!, $al: LocalDate!) { applicaTurniSuggeriti(dal: $dal, al: $al) { ...TurnoSuggeritoFields } } ${TURNO_SUGGERITO_FIELDS}`,
} as const;
