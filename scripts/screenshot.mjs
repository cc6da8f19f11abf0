// Takes screenshots of built pages with the system Chromium, for looking at
// what we ship: node scripts/screenshot.mjs <base-url> <path> [more paths...]
// Writes to screenshots/<name>-<width>-<theme>.png (git-ignored).
import {mkdirSync} from 'node:fs';
import {chromium} from '@playwright/test';
import {chromePath, chromiumArgs} from './chromium.mjs';

const [base, ...paths] = process.argv.slice(2);
if (!base || paths.length === 0) {
  console.error('usage: node scripts/screenshot.mjs <base-url> <path>...');
  process.exit(2);
}
mkdirSync('screenshots', {recursive: true});
const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});
for (const path of paths) {
  for (const width of [1280, 375]) {
    for (const colorScheme of ['light', 'dark']) {
      const page = await browser.newPage({viewport: {width, height: 900}, colorScheme});
      await page.goto(base + path, {waitUntil: 'networkidle'});
      const name = path.replace(/^\/|\/$/g, '').replace(/\//g, '_') || 'home';
      const file = `screenshots/${name}-${width}-${colorScheme}.png`;
      await page.screenshot({path: file, fullPage: process.env.FULL === '1'});
      console.log(file);
      await page.close();
    }
  }
}
await browser.close();
