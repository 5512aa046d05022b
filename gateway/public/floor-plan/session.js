// What the page keeps between loads: the token for the browser session, the device id and operator name for good.

const TOKEN_KEY = 'coperto.floorPlan.token';
const DEVICE_KEY = 'coperto.floorPlan.deviceId';
const OPERATOR_KEY = 'coperto.floorPlan.operatorName';

export const storedToken = () => sessionStorage.getItem(TOKEN_KEY);
export const keepToken = (token) => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

/** This browser's device id for locks (the waiter app's deviceId), made once and kept in localStorage. */
export function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    // getRandomValues works on plain http too (randomUUID needs a secure context).
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    id = 'floor-plan-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

export const operatorName = () => localStorage.getItem(OPERATOR_KEY) || '';
export const keepOperatorName = (name) => localStorage.setItem(OPERATOR_KEY, name.trim());

/**
 * The token's claims, read (not verified: the service verifies every call) to show the tenant and whether
 * the layout editor applies. Null when it is not a JWT.
 */
export function readClaims(token) {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const claims = JSON.parse(atob(base64));
    const roles = [...(Array.isArray(claims.roles) ? claims.roles : []), claims.role].filter(Boolean);
    return {
      tenantId: String(claims.tenantId ?? ''),
      subject: String(claims.sub ?? ''),
      isAdmin: roles.includes('admin'),
      expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : null,
    };
  } catch {
    return null;
  }
}
