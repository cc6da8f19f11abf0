import {readdirSync, readFileSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {describe, expect, it} from 'vitest';
import sidebars from '../../../sidebars';
import {links} from '../../data/links';
import {docsDir} from '../shell/node/docs';
import {
  archivedVersion,
  archivedVersions,
  latestPath,
  latestPaths,
  latestUrl,
  normalizeRoute,
} from './versions';

interface Item {
  type: string;
  id?: string;
  value?: string;
  items?: Item[];
}

/** Every page the menu lists: written ones (`doc`) and pending ones (their label is HTML). */
function menuRoutes(items: readonly Item[]): string[] {
  return items.flatMap((item) => {
    if (item.type === 'category') return menuRoutes(item.items ?? []);
    if (item.type === 'doc' && item.id) return [item.id === 'introduction' ? '/' : `/${item.id}`];
    return [];
  });
}

/** The route of every written page under docs/ (`slug: /` on the introduction). */
function writtenRoutes(): string[] {
  return readdirSync(docsDir, {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.mdx?$/.test(file))
    .map((file) => {
      const slug = /^slug:\s*(\S+)\s*$/m.exec(readFileSync(join(docsDir, file), 'utf8'))?.[1];
      if (slug) return slug;
      return `/${relative('.', file).split(sep).join('/')}`.replace(/\.mdx?$/, '');
    });
}

describe('versions data', () => {
  it('has the same page in the current docs for every route of the menu', () => {
    const routes = menuRoutes(sidebars.docs as Item[]);
    // The menu of sidebars.ts: 11 overview pages, the groups, the pages after them.
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((route) => latestPath(route) === undefined);
    expect(missing).toEqual([]);
  });

  it('has an entry for every written page, in the menu or not', () => {
    const routes = writtenRoutes();
    expect(routes).toContain('/');
    expect(routes).toContain('/enterprise');
    expect(routes.filter((route) => latestPath(route) === undefined)).toEqual([]);
  });

  it('lists only paths of the current docs: absolute, no query, no trailing slash', () => {
    for (const [route, path] of Object.entries(latestPaths)) {
      expect(route).toMatch(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/);
      expect(path).toMatch(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/);
    }
    expect(latestPaths['/recipes/swagger']).toBe('/openapi/introduction');
  });

  it('links the same page in the current docs, and its home for a route it does not know', () => {
    expect(latestUrl('/controllers')).toBe('https://docs.nestjs.com/controllers');
    expect(latestUrl('/techniques/caching/')).toBe('https://docs.nestjs.com/techniques/caching');
    expect(latestUrl('/pipes?lang=js#binding-pipes')).toBe('https://docs.nestjs.com/pipes');
    expect(latestUrl('/')).toBe('https://docs.nestjs.com/');
    expect(latestUrl('/recipes/swagger')).toBe('https://docs.nestjs.com/openapi/introduction');
    expect(latestUrl('/search')).toBe('https://docs.nestjs.com/');
    expect(latestUrl('/no/such/page')).toBe('https://docs.nestjs.com/');
    // The API reference has no counterpart there.
    expect(latestUrl('/api/common#UseGuards')).toBe('https://docs.nestjs.com/');
    expect(latestPath('/api/core')).toBe('/');
  });

  it('normalizes routes', () => {
    expect(normalizeRoute('')).toBe('/');
    expect(normalizeRoute('/')).toBe('/');
    expect(normalizeRoute('controllers')).toBe('/controllers');
    expect(normalizeRoute('/a/b/?x=1')).toBe('/a/b');
  });

  it('links the archived majors v7, v6 and v5 at their root only', () => {
    expect(archivedVersions.map((version) => version.id)).toEqual(['v7', 'v6', 'v5']);
    for (const version of archivedVersions) {
      expect(version.url).toBe(`${links.currentDocs}/v${version.major}/`);
    }
    expect(archivedVersion('v7').url).toBe('https://docs.nestjs.com/v7/');
    expect(() => archivedVersion('v4')).toThrow('No archived docs version "v4"');
  });
});
