/** Operations behind the report routes and a table's history (the rapporti subgraph). */

const CAMBIO_FIELDS = /* GraphQL */ `
  fragment CambioFields on CambioStato {
    id
    tavoloId
    tableId
    at
    stato
    status
    statoPrecedente
    previousStatus
    orderId
    pax
    totalAmount
  }
`;

const REPORT_FIELDS = /* GraphQL */ `
  fragment ReportFields on Report {
    dal
    al
    salaId
    servizi {
      ...ServizioFields
    }
    services {
      ...ServizioFields
    }
    perOra {
      ...CopertiOraFields
    }
    byHour {
      ...CopertiOraFields
    }
    turni {
      ...TurnoFields
    }
    turns {
      ...TurnoFields
    }
    totali {
      ...TotaliFields
    }
    totals {
      ...TotaliFields
    }
  }
  fragment ServizioFields on ServizioReport {
    data
    date
    inizio
    start
    fine
    end
    copertiPrenotati
    coversBooked
    copertiSeduti
    coversSeated
    walkIn
    walkIns
    noShow
    noShows
    prenotazioniDovute
    bookingsDue
    tassoNoShow
    noShowRate
    annullamenti
    cancellations
    utilizzoPosti
    seatUtilisation
    ricavo
    revenue
    ricavoPerPostoOra
    revPash
  }
  fragment CopertiOraFields on CopertiOra {
    ora
    hour
    coperti
    covers
  }
  fragment TurnoFields on TurnoReport {
    coperti
    covers
    sedute
    seatings
    medianaMinuti
    medianMinutes
    configuratiMinuti
    configuredMinutes
  }
  fragment TotaliFields on TotaliReport {
    copertiPrenotati
    coversBooked
    copertiSeduti
    coversSeated
    walkIn
    walkIns
    noShow
    noShows
    prenotazioniDovute
    bookingsDue
    tassoNoShow
    noShowRate
    annullamenti
    cancellations
    utilizzoPosti
    seatUtilisation
    ricavo
    revenue
    ricavoPerPostoOra
    revPash
  }
`;

const TURNO_SUGGERITO_FIELDS = /* GraphQL */ `
  fragment TurnoSuggeritoFields on TurnoSuggerito {
    coperti
    maxCovers
    configuratiMinuti
    configuredMinutes
    suggeritiMinuti
    suggestedMinutes
    sedute
    seatings
    datiSufficienti
    enoughData
  }
`;

export const rapportiOperations = {
  StoricoTavolo: `query StoricoTavolo($id: ID!, $limite: Int) { tavolo(id: $id) { id storico(limite: $limite) { ...CambioFields } history(limite: $limite) { ...CambioFields } } } ${CAMBIO_FIELDS}`,
  Report: `query Report($dal: LocalDate!, $al: LocalDate!, $salaId: ID) { report(dal: $dal, al: $al, salaId: $salaId) { ...ReportFields } } ${REPORT_FIELDS}`,
  ReportCsv: `query ReportCsv($dal: LocalDate!, $al: LocalDate!, $salaId: ID) { reportCsv(dal: $dal, al: $al, salaId: $salaId) }`,
  TurniSuggeriti: `query TurniSuggeriti($dal: LocalDate!, $al: LocalDate!) { turniSuggeriti(dal: $dal, al: $al) { ...TurnoSuggeritoFields } } ${TURNO_SUGGERITO_FIELDS}`,
  ApplicaTurniSuggeriti: `mutation ApplicaTurniSuggeriti($dal: LocalDate!, $al: LocalDate!) { applicaTurniSuggeriti(dal: $dal, al: $al) { ...TurnoSuggeritoFields } } ${TURNO_SUGGERITO_FIELDS}`,
} as const;
