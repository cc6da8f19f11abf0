import {describe, expect, it} from 'vitest';
import {links} from '../../data/links';
import {cleanSelection, issueUrl, maxUrlLength, quote, type ProblemReport} from './issueUrl';

const base = links.docsIssues;

const report: ProblemReport = {
  title: 'Pipes',
  pageUrl: 'https://docs.nestjs.com/pipes',
  section: {heading: 'Binding pipes', id: 'binding-pipes'},
  selection: 'ParseIntPipe throws a BadRequestException',
  version: 'v8 (NestJS 8.4.7)',
  codeLang: 'js',
};

/** The decoded title and body of an issue URL. */
function fields(url: string): {title: string; body: string; base: string} {
  const parsed = new URL(url);
  return {
    base: `${parsed.origin}${parsed.pathname}`,
    title: parsed.searchParams.get('title') ?? '',
    body: parsed.searchParams.get('body') ?? '',
  };
}

describe('issueUrl', () => {
  it('opens a new issue in the docs repository with title, page, section, selection, version and language', () => {
    const url = issueUrl(base, report);
    const {title, body, base: target} = fields(url);
    expect(target).toBe('https://github.com/nestjs/docs.nestjs.com/issues/new');
    expect(title).toBe('Problem on "Pipes" (Binding pipes)');
    expect(body).toContain('- Page: [Pipes](https://docs.nestjs.com/pipes)');
    expect(body).toContain(
      '- Section: [Binding pipes](https://docs.nestjs.com/pipes#binding-pipes)',
    );
    expect(body).toContain('- Docs version: v8 (NestJS 8.4.7)');
    expect(body).toContain('- Code samples shown in: JavaScript');
    expect(body).toContain('### Selected text\n\n> ParseIntPipe throws a BadRequestException');
    expect(body).not.toContain('trimmed');
  });

  it('leaves out the section and the selection when there are none', () => {
    const {title, body} = fields(
      issueUrl(base, {...report, section: undefined, selection: '  \n ', codeLang: 'ts'}),
    );
    expect(title).toBe('Problem on "Pipes"');
    expect(body).not.toContain('Section:');
    expect(body).not.toContain('Selected text');
    expect(body).toContain('- Code samples shown in: TypeScript');
  });

  it('encodes every reserved character: the query cannot be broken by the page or the selection', () => {
    const tricky = 'a & b = c? #hash 100% + "quotes" <tag> \u00e9\u{1F600}';
    const url = issueUrl(base, {...report, title: tricky, selection: tricky});
    expect(url).not.toMatch(/[ "<>#]/);
    expect([...new URL(url).searchParams.keys()]).toEqual(['title', 'body']);
    const {title, body} = fields(url);
    expect(title).toBe(`Problem on "${tricky}" (Binding pipes)`);
    expect(body).toContain(`> ${tricky}`);
  });

  it('quotes every line of a multi-line selection', () => {
    expect(quote('first\r\n\nthird  ')).toBe('> first\n>\n> third');
    expect(cleanSelection('\n\n  some code  \n\n')).toBe('some code');
    const {body} = fields(issueUrl(base, {...report, selection: 'line one\nline two'}));
    expect(body).toContain('> line one\n> line two');
  });

  it('trims a long selection first, says so, and stays under the cap', () => {
    const selection = 'x'.repeat(20_000);
    const url = issueUrl(base, {...report, selection});
    expect(url.length).toBeLessThanOrEqual(maxUrlLength);
    // Nearly all the room goes to the selection.
    expect(url.length).toBeGreaterThan(maxUrlLength - 20);
    const {title, body} = fields(url);
    expect(title).toBe('Problem on "Pipes" (Binding pipes)');
    const kept = /> (x+)/.exec(body)?.[1]?.length ?? 0;
    expect(kept).toBeGreaterThan(7000);
    expect(body).toContain(
      `The selection was trimmed to its first ${kept} characters (${20_000 - kept} left out)`,
    );
  });

  it('counts the encoded length: characters that encode to several bytes are trimmed sooner', () => {
    const selection = '\u00e9'.repeat(5000);
    const url = issueUrl(base, {...report, selection});
    expect(url.length).toBeLessThanOrEqual(maxUrlLength);
    expect(fields(url).body).toContain('trimmed');
  });

  it('never cuts a character in half', () => {
    const selection = '\u{1F600}'.repeat(3000);
    const url = issueUrl(base, {...report, selection});
    expect(url.length).toBeLessThanOrEqual(maxUrlLength);
    // decodeURIComponent throws on half a surrogate pair's encoding.
    expect(() => decodeURIComponent(url)).not.toThrow();
    const quoted = /> (.+)/.exec(fields(url).body)?.[1] ?? '';
    expect(quoted).toMatch(/^(\u{1F600})+$/u);
  });

  it('shortens the title and heading when even no selection would fit', () => {
    const long = 'T'.repeat(2000);
    const url = issueUrl(base, {...report, title: long, section: {heading: long}}, 1000);
    expect(url.length).toBeLessThanOrEqual(1000);
    const {title, body} = fields(url);
    expect(title.length).toBeLessThan(200);
    expect(title).toContain('…');
    expect(body).not.toContain('Selected text');
  });

  it('throws when the cap cannot hold the fixed text', () => {
    expect(() => issueUrl(base, report, 100)).toThrow(/needs more than 100 characters/);
  });
});
