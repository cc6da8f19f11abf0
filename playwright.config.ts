import {defineConfig, devices} from '@playwright/test';
import {chromePath, chromiumArgs} from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 4173);
export const baseURL = `http://127.0.0.1:${port}`;
/** The build under test (default `build/`). */
const buildDir = process.env.E2E_BUILD_DIR ?? 'build';

/**
 * End-to-end tests run against the production build (`npm run build`),
 * served on loopback, in the system Chromium (browser downloads fail here).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // Two workers: the suite fits well under 20 minutes on a 2-core machine (the default, half
  // the cores, is one worker there and doubles that).
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL,
    trace: 'off',
    // The service worker of offline reading registers once a page is idle, then serves the
    // pages and may answer requests a test routes with `page.route`: only the offline spec
    // (tests/e2e/offline.spec.ts, `serviceWorkers: 'allow'`) runs with it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: chromePath,
      args: chromiumArgs,
    },
  },
  projects: [
    {
      name: 'chromium',
      use: {...devices['Desktop Chrome'], channel: undefined},
      testIgnore: /stability\.spec\.ts/,
    },
    {
      // Layout-shift checks run last, on a quiet machine. Under a full parallel load the first
      // paint can come before even a cached font is ready; the font then arrives within its
      // 100ms block period and re-lays out the header's text (seen once: 0.017 on one page).
      name: 'stability',
      use: {...devices['Desktop Chrome'], channel: undefined},
      testMatch: /stability\.spec\.ts/,
      dependencies: ['chromium'],
    },
  ],
  // The build served as in production: its generated _headers (CSP, caching) and _redirects
  // (301s) applied, unknown paths answered by 404.html with status 404.
  webServer: {
    command: `node scripts/serve-build.mjs --dir ${buildDir} --host 127.0.0.1 --port ${port}`,
    url: baseURL,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
