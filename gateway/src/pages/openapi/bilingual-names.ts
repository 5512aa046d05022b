/** Italian input names and their English equivalents: a body may carry either; when both are sent, English wins. */
export const ENGLISH_OF: Readonly<Record<string, string>> = {
  nome: 'name',
  capacita: 'seats',
  salaId: 'roomId',
  numeroPersone: 'covers',
  dataOra: 'bookingDate',
  cliente: 'customerName',
};

const ITALIAN_OF = Object.fromEntries(Object.entries(ENGLISH_OF).map(([it, en]) => [en, it]));

/** The note on a body field that has a twin in the same body, else undefined. */
export function twinNote(field: string, fields: readonly string[]): string | undefined {
  const english = ENGLISH_OF[field];
  if (english && fields.includes(english)) {
    return `Italian name of \`${english}\`; when both are sent, \`${english}\` wins.`;
  }
  const italian = ITALIAN_OF[field];
  if (italian && fields.includes(italian)) {
    return `English name; \`${italian}\` is accepted too. When both are sent, this one wins.`;
  }
  return undefined;
}
