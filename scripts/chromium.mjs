// @ts-check
/**
 * The system Chromium used by the browser tests (playwright.config.ts) and the benchmark
 * (scripts/bench.mjs): browser downloads fail on these machines, and without the
 * background-networking flags Chromium keeps dialling hosts the closed network refuses.
 */
export const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
