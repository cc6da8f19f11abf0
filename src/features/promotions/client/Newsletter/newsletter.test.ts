import {afterEach, describe, expect, it, vi} from 'vitest';
import {newsletterUrl, subscribeToNewsletter, type NewsletterEndpoint} from './client';
import {
  createNewsletterStore,
  initialNewsletterState,
  isValidEmail,
  newsletterReducer,
  type NewsletterState,
} from './state';
import {isRelativeUrl, readCookie, request, xsrfHeaderName, type HttpEnvironment} from './http';

const endpoint: NewsletterEndpoint = {host: 'https://newsletter.example.com', token: 'tok en'};

/** A fake browser: `fetch` answers with `answer` and records every call. */
function fakeEnvironment(
  answer: () => Promise<Response> = async () => new Response(null, {status: 204}),
  cookie = 'XSRF-TOKEN=secret',
) {
  const fetch = vi.fn<typeof globalThis.fetch>(() => answer());
  const environment: HttpEnvironment = {fetch, cookie: () => cookie};
  return {fetch, environment};
}

function headersOf(init: RequestInit | undefined): Headers {
  return new Headers(init?.headers);
}

/** A store wired to the real client and a fake `fetch`. */
function storeWith(environment: HttpEnvironment) {
  const store = createNewsletterStore((email) =>
    subscribeToNewsletter(email, endpoint, environment),
  );
  const seen: NewsletterState['status'][] = [];
  store.subscribe(() => seen.push(store.getState().status));
  return {store, seen};
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('newsletter reducer', () => {
  it('goes idle -> submitting -> added for a valid address', () => {
    let state = newsletterReducer(initialNewsletterState, {
      type: 'edit',
      email: ' ada@example.com ',
    });
    expect(state).toEqual({status: 'idle', email: ' ada@example.com '});
    state = newsletterReducer(state, {type: 'submit'});
    expect(state).toEqual({status: 'submitting', email: 'ada@example.com'});
    state = newsletterReducer(state, {type: 'settled'});
    expect(state).toEqual({status: 'added', email: 'ada@example.com'});
  });

  it('ignores a submit with an invalid or empty address', () => {
    for (const email of ['', 'ada', 'ada@', '@example.com', 'ada example@example.com']) {
      const state = {status: 'idle', email} as const;
      expect(newsletterReducer(state, {type: 'submit'}), email).toBe(state);
    }
  });

  it('ignores edits and submits while submitting or added', () => {
    for (const status of ['submitting', 'added'] as const) {
      const state: NewsletterState = {status, email: 'ada@example.com'};
      expect(newsletterReducer(state, {type: 'edit', email: 'bob@example.com'})).toBe(state);
      expect(newsletterReducer(state, {type: 'submit'})).toBe(state);
    }
    expect(newsletterReducer(initialNewsletterState, {type: 'settled'})).toBe(
      initialNewsletterState,
    );
  });

  it('validates like an email input', () => {
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('ada.lovelace+news@mail.example.co.uk')).toBe(true);
    expect(isValidEmail('ada@localhost')).toBe(true);
    expect(isValidEmail('ada@@example.com')).toBe(false);
    expect(isValidEmail('ada@-example.com')).toBe(false);
  });
});

describe('newsletter sign-up', () => {
  it('POSTs {"email": ...} as JSON to {host}/Stage/newsletter?token={token}, then shows added', async () => {
    const {fetch, environment} = fakeEnvironment();
    const {store, seen} = storeWith(environment);
    store.edit('ada@example.com');
    await expect(store.submit()).resolves.toBe(true);

    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('https://newsletter.example.com/Stage/newsletter?token=tok%20en');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({email: 'ada@example.com'});
    expect(headersOf(init).get('Content-Type')).toBe('application/json');
    expect(seen).toEqual(['idle', 'submitting', 'added']);
    expect(store.getState().status).toBe('added');
  });

  it('ends in added when the request fails, with a warning and no error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');
    const {fetch, environment} = fakeEnvironment(() => Promise.reject(new TypeError('offline')));
    const {store, seen} = storeWith(environment);
    store.edit('ada@example.com');
    await expect(store.submit()).resolves.toBe(true);

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['idle', 'submitting', 'added']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
  });

  it('ends in added on an HTTP error answer too, without reading the body', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const answer = new Response('{"broken": ', {status: 500});
    const json = vi.spyOn(answer, 'json');
    const text = vi.spyOn(answer, 'text');
    const {environment} = fakeEnvironment(async () => answer);
    const {store} = storeWith(environment);
    store.edit('ada@example.com');
    await store.submit();

    expect(store.getState().status).toBe('added');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('500'));
    expect(json).not.toHaveBeenCalled();
    expect(text).not.toHaveBeenCalled();
  });

  it('never sends an invalid address', async () => {
    const {fetch, environment} = fakeEnvironment();
    const {store, seen} = storeWith(environment);
    store.edit('not-an-email');
    await expect(store.submit()).resolves.toBe(false);
    expect(fetch).not.toHaveBeenCalled();
    expect(seen).toEqual(['idle']);
    expect(store.getState()).toEqual({status: 'idle', email: 'not-an-email'});

    // The client refuses on its own too.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await subscribeToNewsletter('ada@', endpoint, environment);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends once however often the form is submitted', async () => {
    let answer: (response: Response) => void = () => {};
    const {fetch, environment} = fakeEnvironment(
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const {store} = storeWith(environment);
    store.edit('ada@example.com');
    const first = store.submit();
    const second = store.submit();
    store.edit('bob@example.com');
    await expect(second).resolves.toBe(false);
    expect(store.getState()).toEqual({status: 'submitting', email: 'ada@example.com'});

    answer(new Response(null, {status: 204}));
    await expect(first).resolves.toBe(true);
    await expect(store.submit()).resolves.toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(store.getState().status).toBe('added');
  });

  it('builds the endpoint URL from host and token', () => {
    expect(newsletterUrl({host: 'https://n.example.com/', token: 'a&b'})).toBe(
      'https://n.example.com/Stage/newsletter?token=a%26b',
    );
  });
});

describe('HTTP client XSRF rule', () => {
  const cookie = 'theme=dark; XSRF-TOKEN=abc%3D%3D; other=1';

  it('adds X-XSRF-TOKEN from the XSRF-TOKEN cookie to non-GET/HEAD requests to relative URLs', async () => {
    for (const [method, url] of [
      ['POST', '/api/newsletter'],
      ['put', 'api/items/1'],
      ['DELETE', '../items?id=1'],
      ['PATCH', '?draft=1'],
    ]) {
      const {fetch, environment} = fakeEnvironment(undefined, cookie);
      await request(url, {method}, environment);
      expect(headersOf(fetch.mock.calls[0][1]).get(xsrfHeaderName), `${method} ${url}`).toBe(
        'abc==',
      );
    }
  });

  it('adds no header to absolute URLs, GET or HEAD requests, or without the cookie', async () => {
    const cases: [string, string, string][] = [
      ['POST', 'https://newsletter.example.com/Stage/newsletter', cookie],
      ['POST', 'HTTP://EXAMPLE.COM/x', cookie],
      ['POST', '//cdn.example.com/x', cookie],
      ['GET', '/api/items', cookie],
      ['HEAD', '/api/items', cookie],
      ['POST', '/api/items', 'theme=dark; NOT-XSRF-TOKEN=abc'],
    ];
    for (const [method, url, cookies] of cases) {
      const {fetch, environment} = fakeEnvironment(undefined, cookies);
      await request(url, {method}, environment);
      expect(headersOf(fetch.mock.calls[0][1]).has(xsrfHeaderName), `${method} ${url}`).toBe(false);
    }
  });

  it('sends no XSRF header with the newsletter sign-up (absolute URL)', async () => {
    const {fetch, environment} = fakeEnvironment(undefined, cookie);
    await subscribeToNewsletter('ada@example.com', endpoint, environment);
    expect(headersOf(fetch.mock.calls[0][1]).has(xsrfHeaderName)).toBe(false);
  });

  it('reads the browser cookie and global fetch by default', async () => {
    const fetch = vi.fn(async () => new Response(null, {status: 204}));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('document', {cookie: 'XSRF-TOKEN=from-browser'});
    await request('/api/items', {method: 'POST'});
    expect(
      headersOf((fetch.mock.calls[0] as unknown[])[1] as RequestInit).get(xsrfHeaderName),
    ).toBe('from-browser');
  });

  it('parses cookies and tells relative from absolute URLs', () => {
    expect(readCookie(cookie, 'XSRF-TOKEN')).toBe('abc==');
    expect(readCookie('XSRF-TOKEN=%E0%A4%A', 'XSRF-TOKEN')).toBe('%E0%A4%A');
    expect(readCookie('', 'XSRF-TOKEN')).toBeUndefined();
    expect(isRelativeUrl('/a')).toBe(true);
    expect(isRelativeUrl('a/b')).toBe(true);
    expect(isRelativeUrl('https://a.example')).toBe(false);
    expect(isRelativeUrl('//a.example')).toBe(false);
  });
});
