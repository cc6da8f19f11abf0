import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {companies, companySlug, logoPath} from '../../src/data/companies';

const staticDir = join(__dirname, '..', '..', 'static');
const logoDir = join(staticDir, 'img', 'companies');

describe('companies', () => {
  it('lists at least 60 companies, 20 of them with a logo', () => {
    expect(companies.length).toBeGreaterThanOrEqual(60);
    expect(companies.filter((company) => company.logo).length).toBeGreaterThanOrEqual(20);
  });

  it('has unique names, slugs and URLs, all https', () => {
    expect(new Set(companies.map((company) => company.name)).size).toBe(companies.length);
    expect(new Set(companies.map((company) => companySlug(company.name))).size).toBe(
      companies.length,
    );
    expect(new Set(companies.map((company) => company.url)).size).toBe(companies.length);
    for (const company of companies) {
      expect(company.url, company.name).toMatch(/^https:\/\/[^/]+/);
    }
  });

  it('has a logo file exactly for the companies flagged with one', () => {
    const files = readdirSync(logoDir).filter((file) => file.endsWith('.svg'));
    const flagged = companies.filter((company) => company.logo);
    expect(files.sort()).toEqual(
      flagged.map((company) => `${companySlug(company.name)}.svg`).sort(),
    );
    for (const company of flagged) {
      const file = join(staticDir, logoPath(company));
      expect(existsSync(file), file).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg, file).toMatch(/<svg [^>]*width="240" height="80" viewBox="0 0 240 80"/);
      expect(svg, file).toContain(`<title>${company.name}</title>`);
    }
  });

  it('slugs names for file names', () => {
    expect(companySlug('Société Générale')).toBe('societe-generale');
    expect(companySlug('Cal.com')).toBe('cal-com');
  });
});
