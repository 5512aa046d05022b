import { localDateOf, localDatesBetween } from '@coperto/domain';
import type { Acting, GoogleApi } from './api-calls.js';
import { offeredKey, searchDays } from './day-searches.js';
import type { GoogleTokens } from './google-tokens.js';
import type { PartyOffer } from './mapping.js';
import { GOOGLE_SERVICE_ID } from './wire.js';

/** The days a feed may cover (`giorni`): Google asks for at least 30 days of inventory. */
export const FEED_DAYS = { min: 1, max: 90, default: 30 } as const;

/**
 * The largest party size the feed lists (one search operation's party sizes, SEARCH_LIMITS). The feed's size is
 * its times × party sizes × days: with every size up to a 1,000-seat table's, a month open all day was 444 MB
 * built in 23 s, and 90 days a 500 (the contract test timed out on it). A larger party is not in the feed;
 * BatchAvailabilityLookup and CreateBooking still answer it.
 */
export const FEED_MAX_PARTY_SIZE = 50;

/** One availability record of Google's availability feed. */
export interface FeedAvailability {
  merchant_id: string;
  service_id: string;
  start_sec: string;
  duration_sec: string;
  spots_total: number;
  spots_open: number;
  resources: { party_size: number };
}

/**
 * A day's availability records: every start any party may take, for every party size 1..max. `spots_total` is the
 * party's places (tables that seat it and combinations whose range holds it), `spots_open` how many of them are free
 * for the party's stay at that start (0 when the search does not offer it to the party). `duration_sec` is the stay
 * the party gets (its turn time, or a shortened stay), else the longest any party gets then. Pure.
 */
export function dayAvailability(merchantId: string, byParty: readonly PartyOffer[]): FeedAvailability[] {
  const starts = new Map<number, number>();
  for (const offered of byParty) {
    for (const [start, { minutes }] of offered.starts) {
      starts.set(start, Math.max(starts.get(start) ?? 0, minutes));
    }
  }
  const records: FeedAvailability[] = [];
  for (const start of [...starts.keys()].sort((a, b) => a - b)) {
    byParty.forEach((offered, index) => {
      const time = offered.starts.get(start);
      records.push({
        merchant_id: merchantId,
        service_id: GOOGLE_SERVICE_ID,
        start_sec: String(start),
        duration_sec: String((time?.minutes ?? starts.get(start)!) * 60),
        spots_total: offered.spotsTotal,
        spots_open: time?.spotsOpen ?? 0,
        resources: { party_size: index + 1 },
      });
    });
  }
  return records;
}

export interface FeedRequest {
  /** The administrator asking (reads the tables' sizes). */
  admin: Acting;
  link: { merchantId: string; channelId: string; tenantId: string };
  days: number;
  now: Date;
}

/**
 * Google's availability feed (JSON) for the next `days` days: the same search Google's BatchAvailabilityLookup and
 * the booking page use, made with the restaurant's Google channel key, for every party size up to the largest any
 * table or combination seats (at most FEED_MAX_PARTY_SIZE).
 */
export async function availabilityFeed(
  deps: { api: GoogleApi; tokens: GoogleTokens; timeZone: string },
  request: FeedRequest,
) {
  const { api, tokens, timeZone } = deps;
  const largest = Math.min(await api.largestFit(request.admin), FEED_MAX_PARTY_SIZE);
  const channel: Acting = {
    authorization: await tokens.channel(request.link.tenantId, request.link.channelId),
    requestId: request.admin.requestId,
  };
  const first = localDateOf(request.now, timeZone);
  const last = localDateOf(new Date(request.now.getTime() + (request.days - 1) * 86_400_000), timeZone);
  const dates = localDatesBetween(first, last).slice(0, request.days);
  const parties = Array.from({ length: largest }, (_, index) => index + 1);
  const offered = await searchDays(
    api,
    channel,
    new Map(dates.map((date) => [date, new Set(parties)])),
    timeZone,
  );
  const availability = dates.flatMap((date) =>
    dayAvailability(
      request.link.merchantId,
      parties.map((covers) => offered.get(offeredKey(date, covers))!),
    ),
  );
  return {
    metadata: {
      processing_instruction: 'PROCESS_AS_COMPLETE',
      shard_number: 0,
      total_shards: 1,
      generation_timestamp: String(Math.floor(request.now.getTime() / 1000)),
    },
    service_availability: [{ availability }],
  };
}
