import type {Page} from '@playwright/test';

/**
 * Collects every CSP violation the page reports (the `securitypolicyviolation` event, and the
 * console error the browser logs with it) and Permissions-Policy header errors, for all the
 * documents the page loads.
 */
export async function watchPolicy(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.exposeBinding('__reportViolation', ({frame}, text: string) => {
    found.push(`${new URL(frame.url()).pathname}: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as {__reportViolation(text: string): void})
          .__reportViolation;
        void report(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} ` +
            `at ${event.sourceFile}:${event.lineNumber} "${event.sample}"`,
        );
      },
      true,
    );
  });
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      /Content.Security.Policy|Permissions.Policy/i.test(message.text())
    ) {
      found.push(`${new URL(page.url()).pathname}: console: ${message.text()}`);
    }
  });
  return found;
}

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * Third parties (the ad network, search, the newsletter, say) answer with an empty script or JSON
 * (`answering`), or their hosts refuse the connection (`down`).
 */
export async function thirdParties(page: Page, state: 'answering' | 'down'): Promise<void> {
  await page.route(
    (url) => !isLoopback(url),
    (route) =>
      state === 'answering'
        ? route.fulfill(
            route.request().resourceType() === 'script'
              ? {status: 200, contentType: 'text/javascript', body: ''}
              : {status: 200, contentType: 'application/json', body: '{}'},
          )
        : route.abort('connectionrefused'),
  );
}

/**
 * Lets the page's late work run: the ad slot adds its script in the first idle period after
 * `load` (src/features/promotions/client/AdSlot/loadAd.ts); this waits for the next one, and for the script's
 * load or error.
 */
export async function settleLateWork(page: Page): Promise<void> {
  if ((await page.locator('[data-ad-slot]').count()) === 0) return;
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestIdleCallback(() => setTimeout(resolve, 100), {timeout: 4000});
      }),
  );
}
