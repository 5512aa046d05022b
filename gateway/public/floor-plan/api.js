// The page's only way to the service: the public REST facade, as any other client uses it.

/** An API refusal: the HTTP status, the error code and the API's own message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A REST client bound to a bearer token. `onUnauthenticated` runs on a 401 (token expired or revoked). */
export function createApi(token, onUnauthenticated) {
  async function request(method, path, body) {
    const headers = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new ApiError(0, 'NETWORK', 'The service cannot be reached');
    }
    const text = await response.text();
    const parsed = text ? safeJson(text) : undefined;
    if (!response.ok) {
      // REST refusals carry `error`; GraphQL ones (POST /graphql) `errors`, with the code in `extensions`.
      const graphqlError = parsed?.errors?.[0];
      const error = parsed?.error ?? (graphqlError ? { ...graphqlError, ...graphqlError.extensions } : {});
      if (response.status === 401) onUnauthenticated(error.message || 'The token was refused');
      throw new ApiError(response.status, error.code || 'HTTP_' + response.status, describe(error, response));
    }
    return parsed;
  }
  /**
   * A GraphQL query on /graphql (guests and guarantees come through federation there): its data, which may be
   * partial when a subgraph did not answer (`errors` then says what is missing). A refused request throws.
   */
  async function graphql(document, variables) {
    const result = await request('POST', '/graphql', { query: document, variables });
    return { data: result?.data ?? null, errors: result?.errors ?? [] };
  }
  return {
    /** Any route (the waitlist panel's calls). */
    request,
    graphql,
    /** The administrator's report (`GET /api/report`): one room, or every room without `roomId`. */
    report: (from, to, roomId) =>
      request(
        'GET',
        `/api/report?dal=${from}&al=${to}${roomId ? `&salaId=${encodeURIComponent(roomId)}` : ''}`,
      ),
    rooms: () => request('GET', '/api/sale'),
    tables: (roomId) => request('GET', `/api/tavoli?salaId=${encodeURIComponent(roomId)}`),
    bookingsOfDay: (date) => request('GET', `/api/prenotazioni?dal=${date}&al=${date}&activeOnly=true`),
    setStatus: (id, status, deviceId) => request('PUT', `/api/tavoli/${id}/status`, { status, deviceId }),
    lock: (id, deviceId, operatorName) =>
      request('POST', `/api/tavoli/${id}/lock`, { deviceId, operatorName: operatorName || undefined }),
    unlock: (id, deviceId) => request('POST', `/api/tavoli/${id}/unlock`, { deviceId }),
    saveGeometry: (id, geometry) => request('PATCH', `/api/tavoli/${id}`, geometry),
    /**
     * The availability check for a party arriving at `dataOra` (restaurant-local) for the default meal
     * duration: the room's tables it leaves out are booked then (or soon after).
     */
    availableAt: (roomId, dataOra) =>
      request('POST', '/api/tavoli/verifica-disponibilita', { dataOra, numeroPersone: 1, salaId: roomId }),
  };
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The API's message, with the field names of a validation refusal. */
function describe(error, response) {
  const message = error.message || `${response.status} ${response.statusText}`;
  const fields = error.details && Array.isArray(error.details.fields) ? error.details.fields : [];
  if (fields.length === 0 || message.includes(fields[0].field)) return message;
  return `${message} (${fields.map((f) => `${f.field}: ${f.message}`).join('; ')})`;
}
