/**
 * A tiny `fetch` wrapper with the site's one generic HTTP rule: a request
 * that changes state (anything but GET and HEAD) to a relative URL carries
 * the cross-site request forgery token of the `XSRF-TOKEN` cookie in the
 * `X-XSRF-TOKEN` header. Absolute URLs (another origin) never get it.
 */

export const xsrfCookieName = 'XSRF-TOKEN';
export const xsrfHeaderName = 'X-XSRF-TOKEN';

/** What the client needs from the browser; tests pass stubs. */
export interface HttpEnvironment {
  readonly fetch: typeof fetch;
  /** The current `document.cookie` string ('' outside a browser). */
  readonly cookie: () => string;
}

const browserEnvironment: HttpEnvironment = {
  // Looked up on each call, so a replaced global `fetch` is honoured.
  fetch: (input, init) => globalThis.fetch(input, init),
  cookie: () => (typeof document === 'undefined' ? '' : document.cookie),
};

/** The decoded value of cookie `name` in a `document.cookie` string. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1 || part.slice(0, separator).trim() !== name) {
      continue;
    }
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** Whether a URL is relative to the page: no scheme (`https:`) and not protocol-relative (`//`). */
export function isRelativeUrl(url: string): boolean {
  return !/^[a-z][a-z\d+.-]*:/i.test(url) && !url.startsWith('//');
}

/** Whether a request with this method and URL must carry the XSRF header. */
export function needsXsrfHeader(method: string, url: string): boolean {
  const upper = method.toUpperCase();
  return upper !== 'GET' && upper !== 'HEAD' && isRelativeUrl(url);
}

/** `fetch(url, init)` plus the XSRF rule above. */
export function request(
  url: string,
  init: RequestInit = {},
  environment: HttpEnvironment = browserEnvironment,
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (needsXsrfHeader(init.method ?? 'GET', url) && !headers.has(xsrfHeaderName)) {
    const token = readCookie(environment.cookie(), xsrfCookieName);
    if (token) {
      headers.set(xsrfHeaderName, token);
    }
  }
  return environment.fetch(url, {...init, headers});
}

/** POSTs `body` as JSON. */
export function postJson(
  url: string,
  body: unknown,
  environment: HttpEnvironment = browserEnvironment,
): Promise<Response> {
  return request(
    url,
    {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)},
    environment,
  );
}
