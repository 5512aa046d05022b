// The pages' only way to the service: the public REST facade, with the channel key or the guest token.

/** An API refusal: the HTTP status and the error code (the page words it in the guest's language). */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A REST client bound to a bearer token (a channel key or a guest token). */
export function createApi(token) {
  return async function request(method, path, body) {
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
      const error = (parsed && parsed.error) || {};
      throw new ApiError(response.status, error.code || `HTTP_${response.status}`, error.message || '');
    }
    return parsed;
  };
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `#key=…` / `#token=…` of the page's URL (the fragment never reaches a server or a Referer). */
export function fragmentParam(name) {
  return new URLSearchParams(location.hash.replace(/^#/, '')).get(name) || '';
}

/** The `sub` claim of a JWT (the guest token's booking id), or '' when the token is not one. */
export function tokenSubject(token) {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(payload.padEnd(payload.length + ((4 - (payload.length % 4)) % 4), '=')));
    return typeof claims.sub === 'string' ? claims.sub : '';
  } catch {
    return '';
  }
}
