import { InputChecks, preferEnglish } from '@coperto/domain';
import type { PoliticaGaranzieInput } from './generated/resolvers-types.js';

/** What a rule asks of a booking's guest: a deposit taken now, or a card (held or saved) charged only on a fee. */
export type TipoGaranzia = 'deposit' | 'card';

/** One rule of the policy: the first whose party, weekday and local time match a booking applies. */
export interface Regola {
  tipo: TipoGaranzia;
  minCoperti: number;
  /** ISO weekdays 1 (Monday) .. 7 (Sunday); empty = every day. */
  giorni: number[];
  /** Local time window `HH:MM`, `dalle` inclusive, `alle` exclusive. */
  dalle: string;
  alle: string;
  /** Minor units (cents) per cover. */
  importoPerCoperto: number;
  /** ISO 4217, lower case (Stripe's form). */
  valuta: string;
}

/**
 * A cancellation tier: a cancellation made at least `oreAlmeno` hours before the start charges `percentuale`; of
 * the tiers the notice reaches, the one with the largest oreAlmeno applies; none = free (rules.ts penaltyPercent).
 * Free until 48 h, 50 % from 48 to 24 h, 100 % later: `[{48, 0}, {24, 50}, {0, 100}]`.
 */
export interface Penale {
  oreAlmeno: number;
  percentuale: number;
}

/** A tenant's guarantee policy (collection `garanzie_politica`, one record per tenant). */
export interface PoliticaRecord {
  id: string;
  regole: Regola[];
  scadenzaMinuti: number;
  /** Sorted by oreAlmeno, descending. */
  penali: Penale[];
  percentualeNoShow: number;
  /** The tenant's Stripe connected account (`acct_…`); null = the platform's own account. */
  stripeAccount: string | null;
  version: number;
  updatedAt: string;
}

export const POLICY_ID = 'politica';
export const DEFAULT_DUE_MINUTES = 60;
export const DUE_MINUTES_RANGE = [10, 1440] as const;
export const DEFAULT_NO_SHOW_PERCENT = 100;
/** Limits of a policy's lists and amounts (a clear 400 past them). */
export const POLICY_LIMITS = {
  rules: 50,
  penalties: 20,
  maxCovers: 1000,
  maxAmountPerCover: 1_000_000,
  maxHours: 24 * 60,
} as const;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** ISO 4217, either case; a connected account's id as Stripe writes it (the REST schemas reuse both). */
export const CURRENCY_PATTERN = '^[A-Za-z]{3}$';
export const ACCOUNT_ID_PATTERN = '^acct_[A-Za-z0-9]{1,64}$';
const CURRENCY = new RegExp(CURRENCY_PATTERN);
const ACCOUNT = new RegExp(ACCOUNT_ID_PATTERN);

export function defaultPolicy(now: string): PoliticaRecord {
  return {
    id: POLICY_ID,
    regole: [],
    scadenzaMinuti: DEFAULT_DUE_MINUTES,
    penali: [],
    percentualeNoShow: DEFAULT_NO_SHOW_PERCENT,
    stripeAccount: null,
    version: 0,
    updatedAt: now,
  };
}

/** The policy fields a PUT sets (the whole policy but the connected account), or a 400 naming every bad field. */
export type PolicyFields = Pick<PoliticaRecord, 'regole' | 'scadenzaMinuti' | 'penali' | 'percentualeNoShow'>;

export function policyFromInput(input: PoliticaGaranzieInput): PolicyFields {
  const checks = new InputChecks();
  const rules = preferEnglish(input.rules, input.regole) ?? [];
  const penalties = preferEnglish(input.penalties, input.penali) ?? [];
  if (rules.length > POLICY_LIMITS.rules)
    checks.add('rules', `must have at most ${POLICY_LIMITS.rules} rules`);
  if (penalties.length > POLICY_LIMITS.penalties)
    checks.add('penalties', `must have at most ${POLICY_LIMITS.penalties} tiers`);
  const regole = rules.map((rule, i): Regola => {
    const at = `rules[${i}]`;
    const tipo = preferEnglish(rule.type, rule.tipo);
    const minCoperti = preferEnglish(rule.minCovers, rule.minCoperti) ?? 1;
    const giorni = preferEnglish(rule.weekdays, rule.giorni) ?? [];
    const dalle = preferEnglish(rule.from, rule.dalle) ?? '00:00';
    const alle = preferEnglish(rule.to, rule.alle) ?? '24:00';
    const importo = preferEnglish(rule.amountPerCover, rule.importoPerCoperto);
    const valuta = preferEnglish(rule.currency, rule.valuta);
    checks
      .required(`${at}.type`, tipo)
      .required(`${at}.amountPerCover`, importo)
      .required(`${at}.currency`, valuta);
    checks.intInRange(`${at}.minCovers`, minCoperti, 1, POLICY_LIMITS.maxCovers);
    checks.intInRange(`${at}.amountPerCover`, importo, 1, POLICY_LIMITS.maxAmountPerCover);
    if (giorni.some((d) => !Number.isInteger(d) || d < 1 || d > 7))
      checks.add(`${at}.weekdays`, 'must be days 1..7');
    if (!TIME.test(dalle)) checks.add(`${at}.from`, 'must be a time HH:MM');
    if (alle !== '24:00' && !TIME.test(alle)) checks.add(`${at}.to`, 'must be a time HH:MM (or 24:00)');
    else if (TIME.test(dalle) && alle <= dalle) checks.add(`${at}.to`, 'must be after from');
    if (valuta != null && !CURRENCY.test(valuta)) checks.add(`${at}.currency`, 'must be an ISO 4217 code');
    return {
      tipo: tipo ?? 'deposit',
      minCoperti,
      giorni: [...new Set(giorni)].sort(),
      dalle,
      alle,
      importoPerCoperto: importo ?? 0,
      valuta: (valuta ?? '').toLowerCase(),
    };
  });
  const penali = penalties.map((tier, i): Penale => {
    const at = `penalties[${i}]`;
    const oreAlmeno = preferEnglish(tier.minHours, tier.oreAlmeno);
    const percentuale = preferEnglish(tier.percent, tier.percentuale);
    checks.required(`${at}.minHours`, oreAlmeno).required(`${at}.percent`, percentuale);
    checks.intInRange(`${at}.minHours`, oreAlmeno, 0, POLICY_LIMITS.maxHours);
    checks.intInRange(`${at}.percent`, percentuale, 0, 100);
    return { oreAlmeno: oreAlmeno ?? 0, percentuale: percentuale ?? 0 };
  });
  if (new Set(penali.map((p) => p.oreAlmeno)).size !== penali.length)
    checks.add('penalties', 'must not repeat minHours');
  const scadenzaMinuti = preferEnglish(input.dueMinutes, input.scadenzaMinuti) ?? DEFAULT_DUE_MINUTES;
  checks.intInRange('dueMinutes', scadenzaMinuti, ...DUE_MINUTES_RANGE);
  const percentualeNoShow =
    preferEnglish(input.noShowPercent, input.percentualeNoShow) ?? DEFAULT_NO_SHOW_PERCENT;
  checks.intInRange('noShowPercent', percentualeNoShow, 0, 100);
  checks.throwIfAny();
  return {
    regole,
    scadenzaMinuti,
    penali: penali.sort((a, b) => b.oreAlmeno - a.oreAlmeno),
    percentualeNoShow,
  };
}

/** A connected account id as Stripe writes it (`acct_…`), or null to use the platform's own account. */
export function checkAccountId(accountId: string | null | undefined): string | null {
  if (accountId == null || accountId === '') return null;
  if (!ACCOUNT.test(accountId))
    new InputChecks().add('accountId', 'must be a Stripe account id acct_…').throwIfAny();
  return accountId;
}
