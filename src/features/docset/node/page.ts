/**
 * One docs page of the build as a docset page: the article only, as static HTML that needs no
 * script (code pairs as two labelled blocks, callouts, tables, diagrams), its links relative
 * between docset pages, plus what the search index needs from it (title, `##` sections, the
 * NestJS names its samples import and its prose mentions).
 *
 * Node-only (cheerio).
 */
import {load, type Cheerio, type CheerioAPI} from 'cheerio';
import type {AnyNode, Element} from 'domhandler';
import {escapeHtml} from '../../../data/html';

/** A docs route's file, in the build and in the docset: `/` is `index.html`. */
export function pageFile(route: string): string {
  const path = route.replace(/^\/+|\/+$/g, '');
  return path === '' ? 'index.html' : `${path}.html`;
}

/** `to` (a docset path) relative to the folder of `from` (another one). */
export function relativePath(from: string, to: string): string {
  const fromDirs = from.split('/').slice(0, -1);
  const target = to.split('/');
  let common = 0;
  while (
    common < fromDirs.length &&
    common < target.length - 1 &&
    fromDirs[common] === target[common]
  ) {
    common += 1;
  }
  return [...fromDirs.slice(common).map(() => '..'), ...target.slice(common)].join('/');
}

export interface PageContext {
  /** The page's route (`/techniques/caching`). */
  readonly route: string;
  /** Every route that is a page of the docset. */
  readonly routes: ReadonlySet<string>;
  /** `https://docs.nestjs.com`, no trailing slash. */
  readonly siteUrl: string;
}

export interface PageSection {
  readonly heading: string;
  readonly id: string;
}

/** A NestJS name a sample imports, and how the samples use it. */
export interface ApiUse {
  readonly name: string;
  /** `@nestjs/common` */
  readonly from: string;
}

export interface DocsetPage {
  readonly route: string;
  /** `techniques/caching.html` */
  readonly file: string;
  readonly title: string;
  /** The `##` headings. */
  readonly sections: readonly PageSection[];
  /** Every `id` of the page (anchors). */
  readonly ids: readonly string[];
  /** Site files the page shows (`/img/companies/roche.svg`), to copy into the docset. */
  readonly images: readonly string[];
  /** The TypeScript of its samples (TypeScript halves of pairs, `ts` blocks). */
  readonly typescript: readonly string[];
  /** Inline code of its prose, in order, each with the section it is in. */
  readonly inlineCode: readonly {readonly text: string; readonly section?: string}[];
  readonly html: string;
}

/** The text of a code block, one line per `.token-line` (each ends with a `<br>`). */
function codeText($: CheerioAPI, code: Cheerio<Element>): string {
  const lines = code.find('.token-line');
  if (lines.length === 0) return code.text();
  return lines
    .toArray()
    .map((line) => $(line).text())
    .join('\n');
}

const languageNames: Record<string, string> = {ts: 'TypeScript', js: 'JavaScript'};

/** A labelled code block: `<figure>` with the language (and file name) as its caption. */
function labelled(
  $: CheerioAPI,
  block: Cheerio<AnyNode>,
  lang: string,
  filename?: string,
): Cheerio<AnyNode> {
  const label = languageNames[lang] ?? lang;
  const figure = $(
    `<figure class="docset-code" data-lang="${escapeHtml(lang)}"><figcaption>` +
      `<span class="docset-lang">${escapeHtml(label)}</span>` +
      (filename ? ` <span class="docset-file">${escapeHtml(filename)}</span>` : '') +
      '</figcaption></figure>',
  );
  // The block itself moves into the figure: no serializing and parsing it again.
  figure.append(block);
  return figure;
}

/** The `<article>` of a built page, or throws. */
function articleOf(html: string, route: string): string {
  const start = html.indexOf('<article');
  const end = html.lastIndexOf('</article>');
  if (start === -1 || end === -1) throw new Error(`[docset] ${route}: no <article> in the page`);
  return html.slice(start, end + '</article>'.length);
}

/** Converts the built HTML of the page at `context.route`. */
export function docsetPage(html: string, context: PageContext): DocsetPage {
  const file = pageFile(context.route);
  // htmlparser2 (`xml` with `xmlMode: false` is cheerio's switch to it) rather than parse5: the
  // same tree for the theme's well-formed markup, parsed in half the time, serialized ten times
  // faster.
  const $ = load(articleOf(html, context.route), {xml: {xmlMode: false}}, false);
  const content = $('.theme-doc-markdown').first();
  if (content.length === 0) {
    throw new Error(`[docset] ${context.route}: no .theme-doc-markdown in the article`);
  }

  // What only the site needs: scripts, controls, banners, self-links, the title's buttons.
  content
    .find(
      'script, style, noscript, [data-banner], [data-pagefind-ignore], .hash-link, ' +
        '[data-code-pair-switch], [class*="admonitionIcon"], ' +
        '[class*="buttonGroup"]',
    )
    .remove();
  // Diagrams sit in a zoom button: keep the image, not the button's hidden label.
  content.find('button').each((_, button) => {
    const $button = $(button);
    $button.find('.visually-hidden').remove();
    $button.replaceWith($button.contents());
  });
  content
    .find('[data-pagefind-body], [data-pagefind-filter], [data-pagefind-meta]')
    .each((_, element) => {
      $(element)
        .removeAttr('data-pagefind-body')
        .removeAttr('data-pagefind-filter')
        .removeAttr('data-pagefind-meta');
    });

  // Samples: read before they are rewritten.
  const typescript: string[] = [];
  content.find('pre code').each((_, code) => {
    const $code = $(code);
    const half = $code.closest('[data-code-pair-half]').attr('data-code-pair-half');
    const block = $code.closest('.theme-code-block');
    const tsBlock = block.hasClass('language-ts') || block.hasClass('language-typescript');
    if (half === 'ts' || (half === undefined && tsBlock)) typescript.push(codeText($, $code));
  });

  // Code pairs: both halves, each labelled with its language and file name.
  content.find('[data-code-pair]').each((_, pair) => {
    const $pair = $(pair);
    const wrapper = $('<div class="docset-pair"></div>');
    if ($pair.attr('data-code-pair') === 'pair') {
      for (const lang of ['ts', 'js']) {
        const filename = $pair.find(`[data-code-pair-filename="${lang}"]`).first().text();
        const block = $pair.find(`[data-code-pair-half="${lang}"] .theme-code-block`).first();
        wrapper.append(labelled($, block, lang, filename || undefined));
      }
    } else {
      const name = $pair.find('[data-code-pair-filename]').first();
      const lang = name.attr('data-code-pair-filename') ?? 'ts';
      wrapper.append(labelled($, $pair.find('.theme-code-block').first(), lang, name.text()));
    }
    $pair.replaceWith(wrapper);
  });

  // Links: between docset pages relative, anything else of the site absolute.
  content.find('a[href]').each((_, link) => {
    const $link = $(link);
    const href = $link.attr('href') ?? '';
    $link.removeAttr('target').removeAttr('rel');
    if (!href.startsWith('/') || href.startsWith('//')) return;
    const url = new URL(href, context.siteUrl);
    const route = url.pathname.replace(/\/+$/, '') || '/';
    if (context.routes.has(route)) {
      $link.attr('href', `${relativePath(file, pageFile(route))}${url.hash}`);
    } else {
      $link.attr('href', `${context.siteUrl}${url.pathname}${url.search}${url.hash}`);
    }
  });

  // Images of the site's own files: copied into the docset, linked relatively.
  const images: string[] = [];
  content.find('img[src]').each((_, image) => {
    const $image = $(image);
    const src = $image.attr('src') ?? '';
    $image.removeAttr('loading').removeAttr('decoding');
    if (!src.startsWith('/') || src.startsWith('//')) return;
    const path = decodeURI(src.replace(/[?#].*$/, ''));
    images.push(path);
    $image.attr('src', relativePath(file, path.slice(1)));
  });

  // Sections: the `##` headings, each with an anchor Dash's page outline reads.
  const sections: PageSection[] = [];
  content.find('h2[id]').each((_, heading) => {
    const $heading = $(heading);
    const text = $heading
      .text()
      .replace(/\u200b/g, '')
      .trim();
    const id = $heading.attr('id') ?? '';
    sections.push({heading: text, id});
    $heading.before(
      `<a name="//apple_ref/cpp/Section/${encodeURIComponent(text)}" class="dashAnchor"></a>`,
    );
  });

  // Inline code of the prose, with its section.
  const inlineCode: {text: string; section?: string}[] = [];
  let section: string | undefined;
  content.find('h2[id], h3[id], code').each((_, element) => {
    const $element = $(element);
    if (element.tagName === 'h2' || element.tagName === 'h3') {
      section = $element.attr('id');
    } else if ($element.closest('pre').length === 0) {
      inlineCode.push({text: $element.text(), section});
    }
  });

  const title = content.find('h1').first().text().trim();
  if (!title) throw new Error(`[docset] ${context.route}: the page has no <h1>`);
  const header = content.find('header').first();
  header.replaceWith(`<h1>${escapeHtml(title)}</h1>`);

  const ids = content
    .find('[id]')
    .toArray()
    .map((element) => $(element).attr('id') ?? '');

  const online = `${context.siteUrl}${context.route === '/' ? '/' : context.route}`;
  const css = relativePath(file, 'docset.css');
  const body = content.html() ?? '';
  const page =
    `<!DOCTYPE html>\n<html lang="en">\n<!-- Online page at ${online} -->\n<head>\n` +
    `<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeHtml(title)} - NestJS 8</title>\n<link rel="stylesheet" href="${css}">\n` +
    `</head>\n<body>\n<main class="markdown">\n${body}\n</main>\n` +
    `<footer class="docset-footer">NestJS 8 documentation. <a href="${online}">This page online</a></footer>\n` +
    `</body>\n</html>\n`;
  return {
    route: context.route,
    file,
    title,
    sections,
    ids,
    images: [...new Set(images)],
    typescript,
    inlineCode,
    html: page,
  };
}
