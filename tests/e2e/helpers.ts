import {expect, type Page} from '@playwright/test';

export const siteTitle = 'NestJS - A progressive Node.js framework';

/** The paths listed in the built sitemap, in order. */
export async function sitemapPaths(page: Page): Promise<string[]> {
  const response = await page.request.get('/sitemap.xml');
  expect(response.ok()).toBe(true);
  const xml = await response.text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
}

/** Records uncaught page errors; call the returned function to read them. */
export function collectPageErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return () => errors;
}
