// @ts-check
/**
 * Renders the web app manifest's icons (static/manifest.json) from the site's logo,
 * static/img/logo.svg, with the system Chromium: run once after the logo changes, and commit
 * the PNGs.
 *
 *   node scripts/render-icons.mjs
 *
 * - `icon-192.png`, `icon-512.png` (purpose `any`): the logo on a transparent background.
 * - `icon-maskable-512.png` (purpose `maskable`): the logo within the safe zone (the centre
 *   circle of 80% of the size) on white, as launchers crop it to any shape.
 * - `icon.png` and `icon@2x.png` (16 and 32 px) of the Dash/Zeal docset, in
 *   src/features/docset/assets/.
 */
import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {chromium} from '@playwright/test';
import {chromePath, chromiumArgs} from './chromium.mjs';

const outDir = join('static', 'img', 'icons');

const docsetDir = join('src', 'features', 'docset', 'assets');

const icons = [
  {file: 'icon-192.png', size: 192, logo: 0.9, background: 'transparent'},
  {file: 'icon-512.png', size: 512, logo: 0.9, background: 'transparent'},
  {file: 'icon-maskable-512.png', size: 512, logo: 0.56, background: '#ffffff'},
  {file: 'icon.png', dir: docsetDir, size: 16, logo: 1, background: 'transparent'},
  {file: 'icon@2x.png', dir: docsetDir, size: 32, logo: 1, background: 'transparent'},
];

const svg = await readFile(join('static', 'img', 'logo.svg'), 'utf8');
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
await mkdir(outDir, {recursive: true});
const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});
try {
  const page = await browser.newPage({deviceScaleFactor: 1});
  for (const {file, dir = outDir, size, logo, background} of icons) {
    await page.setViewportSize({width: size, height: size});
    const side = Math.round(size * logo);
    await page.setContent(
      `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;` +
        `place-items:center;background:${background}">` +
        `<img src="${dataUrl}" width="${side}" height="${side}" alt=""></body></html>`,
    );
    await page.locator('img').evaluate((img) => /** @type {HTMLImageElement} */ (img).decode());
    await page.screenshot({path: join(dir, file), omitBackground: background === 'transparent'});
    console.log(`${join(dir, file)} (${size}x${size})`);
  }
} finally {
  await browser.close();
}
