import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {
  companies,
  companiesWithLogos,
  companiesWithoutLogos,
  companySlug,
  logoPath,
} from './companies';

const root = join(__dirname, '..', '..', '..');
const staticDir = join(root, 'static');
const logoDir = join(staticDir, 'img', 'companies');

/** The organisations to list (shared/companies.tsv beside the repo): url and place, in order. */
const sourceFile = join(root, '..', 'shared', 'companies.tsv');

describe('companies', () => {
  it('lists 94 companies, 41 of them with a logo', () => {
    expect(companies).toHaveLength(94);
    expect(companiesWithLogos).toHaveLength(41);
    expect(companiesWithoutLogos).toHaveLength(53);
  });

  it('puts the logo wall first and keeps the order in both parts', () => {
    expect(companies.slice(0, 41).every((company) => company.logo)).toBe(true);
    expect(companiesWithLogos).toEqual(companies.slice(0, 41));
    expect(companiesWithoutLogos).toEqual(companies.slice(41));
    expect(companiesWithLogos[0]?.name).toBe('Roche');
    expect(companiesWithoutLogos.at(-1)?.name).toBe('iTrio');
  });

  it.runIf(existsSync(sourceFile))('matches the source list, in its order', () => {
    const rows = readFileSync(sourceFile, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.split('\t'));
    expect(companies.map((company) => [company.url, company.logo ? 'wall' : 'list'])).toEqual(rows);
  });

  it('has unique names, slugs and URLs, all http(s)', () => {
    expect(new Set(companies.map((company) => company.name)).size).toBe(companies.length);
    expect(new Set(companies.map((company) => companySlug(company.name))).size).toBe(
      companies.length,
    );
    expect(new Set(companies.map((company) => company.url)).size).toBe(companies.length);
    for (const company of companies) {
      expect(company.name, company.url).toMatch(/^\S(.*\S)?$/);
      expect(company.url, company.name).toMatch(/^https?:\/\/[^/]+/);
    }
  });

  it('has a logo file for every company on the wall, and no other logo file', () => {
    const files = readdirSync(logoDir);
    expect(files.sort()).toEqual(
      companiesWithLogos.map((company) => `${companySlug(company.name)}.svg`).sort(),
    );
    for (const company of companiesWithLogos) {
      const file = join(staticDir, logoPath(company));
      expect(existsSync(file), file).toBe(true);
    }
  });

  it('draws every logo as an accessible 240 x 80 monochrome wordmark', () => {
    for (const company of companiesWithLogos) {
      const file = join(staticDir, logoPath(company));
      const svg = readFileSync(file, 'utf8');
      const label = company.name.replace(/&/g, '&amp;');
      expect(svg, file).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /);
      expect(svg, file).toMatch(/<svg [^>]*width="240" height="80" viewBox="0 0 240 80"/);
      expect(svg, file).toContain(`role="img" aria-label="${label}"`);
      expect(svg, file).toContain(`<title>${label}</title>`);
      expect(svg, file).toMatch(/<text [^>]*>[^<]+<\/text>/);
      // One colour, set once on the group; shapes use it or white cut-outs.
      const colours = new Set(
        [...svg.matchAll(/(?:fill|stroke|color)="([^"]+)"/g)]
          .map((match) => match[1])
          .filter((colour) => !['none', 'currentColor', '#fff'].includes(colour ?? '')),
      );
      expect(colours.size, file).toBe(1);
      // Nothing fetched: no scripts, images or external fonts.
      expect(svg, file).not.toMatch(/<script|<image|href=|@import|url\(/);
    }
  });

  it('slugs names for file names', () => {
    expect(companySlug('Société Générale')).toBe('societe-generale');
    expect(companySlug('Facile.it')).toBe('facile-it');
    expect(companySlug('Global CTO Forum')).toBe('global-cto-forum');
  });
});
