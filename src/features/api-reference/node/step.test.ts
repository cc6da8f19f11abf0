import {describe, expect, it} from 'vitest';
import {entryDocuments} from './step';

describe('entryDocuments', () => {
  const html =
    '<div data-pagefind-body=""><h1>@nestjs/common</h1><p>Intro</p>' +
    '<section data-api-entry=UseGuards><h3 class=anchor id=UseGuards>UseGuards<a href=#UseGuards class=hash-link>#</a></h3>' +
    '<p><strong>Decorator</strong></p><pre><code><a href="/api/common#CanActivate">CanActivate</a></code></pre>' +
    '<p><strong>See also:</strong> <a href=/guards>Guards</a><p><strong>Used in:</strong> <a href=/pipes>Pipes</a></section>' +
    '<section data-api-entry="Body"><h3 id="Body">Body</h3><p id=x>Binds the body.</p></section></div>';

  it('makes one record per entry, titled by the export, without ids or links elsewhere', () => {
    const documents = entryDocuments(html, '/api/common');
    expect(documents.map((document) => document.url)).toEqual([
      '/api/common#UseGuards',
      '/api/common#Body',
      '/api/common',
    ]);
    const [first, second] = documents;
    expect(first.content).toContain('<h1>UseGuards</h1><p><strong>Decorator</strong></p>');
    expect(first.content).toContain('data-pagefind-filter="section:API"');
    // One meta value: Pagefind reads a comma in it as part of the value.
    expect(first.content).toContain('data-pagefind-meta="section:API"');
    expect(first.content).not.toContain('id=');
    expect(first.content).not.toContain('hash-link');
    expect(first.content).not.toContain('Guards</a>');
    expect(first.content).not.toContain('Pipes');
    expect(second.content).toContain('<h1>Body</h1><p>Binds the body.</p>');
  });

  it('gives the page a record of its own without the entries', () => {
    const page = entryDocuments(html, '/api/common').at(-1)!;
    expect(page.content).toBe(
      '<div data-pagefind-body=""><h1>@nestjs/common</h1><p>Intro</p></div>',
    );
  });

  it('finds nothing in a page without entries', () => {
    expect(entryDocuments('<p>none</p>', '/api/x')).toEqual([]);
  });
});
