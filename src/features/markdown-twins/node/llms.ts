/**
 * `llms.txt` and `llms-full.txt` (https://llmstxt.org): the written pages in menu order, one `##`
 * section per menu group, each page's twin at `twinPath(route)`.
 */

/** Where a page's twin is written and served: `/controllers.md`, `/index.md` for `/`. */
export function twinPath(route: string): string {
  return route === '/' || route === '' ? '/index.md' : `${route.replace(/\/+$/, '')}.md`;
}

/** A written docs page, as the generator needs it. */
export interface TwinPage {
  readonly id: string;
  readonly route: string;
  readonly title: string;
  readonly description: string;
  readonly markdown: string;
}

/** A menu item, as far as the generator reads it (Docusaurus' loaded sidebar). */
export interface MenuItem {
  readonly type: string;
  readonly id?: string;
  readonly label?: string;
  readonly items?: readonly MenuItem[];
}

/** One `##` section of llms.txt: a menu group, or a page outside the groups. */
export interface LlmsSection {
  readonly title: string;
  readonly pages: readonly TwinPage[];
}

/**
 * The sections of llms.txt, in menu order: one per top-level menu entry (a group lists its
 * pages, nested groups flattened; a page outside the groups is a section of its own, under its
 * menu label), then "Other pages" for written pages the menu does not list. Pending entries (not
 * written: html items) and external links are left out; each page appears once.
 */
export function llmsSections(menu: readonly MenuItem[], pages: readonly TwinPage[]): LlmsSection[] {
  const byId = new Map(pages.map((page) => [page.id, page]));
  const listed = new Set<string>();
  const docsOf = (item: MenuItem): TwinPage[] => {
    if (item.type === 'category') return (item.items ?? []).flatMap(docsOf);
    if (item.type !== 'doc' || item.id === undefined || listed.has(item.id)) return [];
    const page = byId.get(item.id);
    if (!page) return [];
    listed.add(item.id);
    return [page];
  };
  const sections: LlmsSection[] = [];
  for (const item of menu) {
    const found = docsOf(item);
    if (found.length === 0) continue;
    const title = item.label ?? found[0]?.title ?? '';
    sections.push({title, pages: found});
  }
  const others = pages.filter((page) => !listed.has(page.id));
  if (others.length > 0) sections.push({title: 'Other pages', pages: others});
  return sections;
}

export interface LlmsOptions {
  readonly siteUrl: string;
  /** The `# ` title of the files. */
  readonly name: string;
  /** The one-paragraph summary (`> ...`). */
  readonly summary: string;
}

/** One line of a Markdown list item's text: no line breaks, `[`/`]` escaped in link text. */
function inline(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** `llms.txt`: the title, the summary, then each section's pages with their description. */
export function llmsTxt(sections: readonly LlmsSection[], options: LlmsOptions): string {
  const site = options.siteUrl.replace(/\/+$/, '');
  const lines = [`# ${options.name}`, '', `> ${inline(options.summary)}`, ''];
  for (const section of sections) {
    lines.push(`## ${inline(section.title)}`, '');
    for (const page of section.pages) {
      const title = inline(page.title).replace(/([[\]])/g, '\\$1');
      const description = inline(page.description);
      lines.push(
        `- [${title}](${site}${twinPath(page.route)})${description ? `: ${description}` : ''}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** `llms-full.txt`: every page's twin in menu order, each followed by its URL, then a rule. */
export function llmsFullTxt(sections: readonly LlmsSection[], options: LlmsOptions): string {
  const site = options.siteUrl.replace(/\/+$/, '');
  const header = `# ${options.name}\n\n> ${inline(options.summary)}\n`;
  const pages = sections.flatMap((section) => section.pages);
  return [
    header,
    ...pages.map((page) => {
      const [title = '', ...body] = page.markdown.trimEnd().split('\n');
      return [title, '', `Source: ${site}${page.route}`, ...body].join('\n');
    }),
  ]
    .join('\n\n---\n\n')
    .concat('\n');
}
