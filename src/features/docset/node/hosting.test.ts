import {describe, expect, it} from 'vitest';
import {links} from '../../../data/links';
import {
  hostingModel,
  renderHeaders,
  renderHtaccess,
  renderNginx,
  revalidate,
} from '../../hosting/node/hosting';
import {filesToSave} from '../../offline/logic';
import {docsetFiles} from './docset';

describe('hosting of the docset', () => {
  const model = hostingModel({
    features: {ads: false, pagefind: true},
    hashes: {scripts: [], styles: [], styleAttributes: []},
    redirects: [],
    enterpriseUrl: links.enterprise,
    htmlRoutes: ['/', '/controllers', '/techniques/caching'],
    typedFiles: [...docsetFiles],
  });

  it('serves the archive and the feed with their types, revalidated, in _headers', () => {
    const headers = renderHeaders(model);
    expect(headers).toContain('\n/docset/NestJS.tgz\n  Content-Type: application/gzip\n');
    expect(headers).toContain(
      '\n/docset/NestJS.xml\n  Content-Type: application/xml; charset=utf-8\n',
    );
    for (const {path} of docsetFiles) {
      const rules = model.caching.filter((rule) => rule.path === path);
      expect(
        rules.map((rule) => rule.headers['Cache-Control']),
        path,
      ).toEqual([revalidate]);
    }
  });

  it('says the same to Apache and nginx', () => {
    const htaccess = renderHtaccess(model);
    expect(htaccess).toContain('ForceType "application/gzip"');
    expect(htaccess).toContain('ForceType "application/xml; charset=utf-8"');
    const nginx = renderNginx(model);
    expect(nginx).toContain('location ~ (^(/docset/NestJS\\.tgz))$ {');
    expect(nginx).toContain('default_type "application/gzip";');
    expect(nginx).toContain('location ~ (^(/docset/NestJS\\.xml))$ {');
  });

  it('is not in the offline "save all" list', () => {
    expect(
      filesToSave([
        'docset/NestJS.tgz',
        'docset/NestJS.xml',
        'img/logo.svg',
        'assets/js/main.1.js',
      ]),
    ).toEqual(['/assets/js/main.1.js', '/img/logo.svg']);
  });
});
