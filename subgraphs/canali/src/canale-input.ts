import { InputChecks } from '@coperto/domain';
import { CANALE_LIMITS } from './canale-record.js';
import type { CanaleInput } from './generated/resolvers-types.js';

/** A channel's input with English winning over Italian, validated (400 naming every bad field, as sent). */
export function readCanaleInput(input: CanaleInput): { nome: string; origini: string[] } {
  const [nomeField, nome] = input.name != null ? ['name', input.name] : ['nome', input.nome];
  const [originiField, origini] =
    input.origins != null ? ['origins', input.origins] : ['origini', input.origini];
  const checks = new InputChecks()
    .required(nomeField, nome)
    .text(nomeField, nome, { min: 1, max: CANALE_LIMITS.nomeMaxLength });
  const normalized: string[] = [];
  if (origini != null) {
    if (origini.length > CANALE_LIMITS.maxOrigins) {
      checks.add(originiField, `must list at most ${CANALE_LIMITS.maxOrigins} origins`);
    }
    for (const [index, origin] of origini.entries()) {
      const parsed = browserOrigin(origin);
      if (parsed === undefined) {
        checks.add(`${originiField}[${index}]`, 'must be a browser origin: http(s)://host[:port], no path');
      } else if (!normalized.includes(parsed)) {
        normalized.push(parsed);
      }
    }
  }
  checks.throwIfAny();
  return { nome: nome!.trim(), origini: normalized };
}

/** `origin` in its canonical form (`https://example.com`, lower case, default port dropped), or undefined. */
export function browserOrigin(origin: string): string | undefined {
  if (origin.length > CANALE_LIMITS.originMaxLength) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (url.pathname !== '/' || !/^https?:\/\/[^/]+\/?$/i.test(origin.trim())) return undefined;
  return url.origin;
}
