/**
 * Writes the API reference as Markdown (MDX) pages, one per package (`docs/api/common.md`), one
 * `###` section per export, so that the docs plugin gives them the menu, the table of contents,
 * the Markdown twins and the search for free.
 *
 * A section: the kind and the declaration file, the declarations as a TypeScript block whose
 * type names link to their entries (the fence's `api-refs` meta, read by ./remark.ts), the doc
 * comment, `@see` links, the documented members, and "Used in" (the guide pages whose samples
 * import the export). Links to `https://docs.nestjs.com/...` become links to this site's pages
 * when those exist (with the anchor when the heading exists), so the build checks them.
 *
 * The packages' doc comments are Markdown written for an editor's hover, not MDX: braces and
 * `<` outside code are escaped. Node-only.
 */
import {kindNames, kindLabels, kindOrder, type ApiModel, type ApiSymbol} from '../model';
import {entryUrl, referencePackages, type ReferencePackage} from '../packages';
import type {GuidePage} from './docsScan';
import {refsMetaValue} from './remark';

/** The origin the packages' comments link to: this site's production address. */
const docsOrigin = /^https?:\/\/docs\.nestjs\.com(\/[^\s)#]*)?(#[^\s)]*)?$/;

export interface PageContext {
  readonly guides: readonly GuidePage[];
}

/** A `docs.nestjs.com` URL as a link to this site, or null when the page does not exist here. */
export function localUrl(url: string, context: PageContext): string | null {
  const match = docsOrigin.exec(url.trim());
  if (!match) return null;
  const path = (match[1] ?? '/').replace(/\/+$/, '') || '/';
  const guide = context.guides.find((page) => page.route === path);
  if (!guide) return null;
  const anchor = match[2]?.slice(1);
  return anchor && guide.anchors.has(anchor) ? `${path}#${anchor}` : path;
}

/** Escapes what MDX would read as JSX or expressions in prose; code is left alone. */
export function escapeProse(text: string): string {
  return text
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/([{}<>])/g, '\\$1')
            .replace(/^(\s*)(import|export)(\s)/gm, '$1\\$2$3')
            .replace(/^(\s*)#/gm, '$1\\#'),
    )
    .join('');
}

/** Markdown of a comment: fences kept, prose escaped, docs.nestjs.com links made local. */
export function commentMarkdown(text: string, context: PageContext): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (prose.length > 0) out.push(rewriteLinks(escapeProse(prose.join('\n')), context));
    prose = [];
  };
  for (const line of lines) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      flush();
      fence = marker;
      // Comments write ```typescript; the site highlights `ts`.
      out.push(line.replace(/(`{3,}|~{3,})\s*typescript\b/, '$1ts'));
      continue;
    }
    if (fence !== null) {
      out.push(line);
      if (marker && marker.startsWith(fence) && line.trim() === marker) fence = null;
      continue;
    }
    prose.push(line);
  }
  flush();
  // An unclosed fence in a comment would swallow the rest of the page.
  if (fence !== null) out.push(fence);
  return out.join('\n').trim();
}

/** Markdown links and bare URLs to docs.nestjs.com, as local links (or their text). */
function rewriteLinks(markdown: string, context: PageContext): string {
  return markdown
    .replace(/\[([^\]]*)\]\((https?:\/\/[^)\s]+)\)/g, (whole, label: string, url: string) => {
      if (!docsOrigin.test(url)) return whole;
      const local = localUrl(url, context);
      return local ? `[${label}](${local})` : label;
    })
    .replace(
      /(^|[\s(])(https?:\/\/docs\.nestjs\.com(?:[^\s)]*[^\s).,;:])?)/g,
      (whole, before: string, url) => {
        const local = localUrl(url as string, context);
        if (!local) return whole;
        const page = context.guides.find((guide) => guide.route === local.replace(/#.*$/, ''));
        return `${before}[${escapeProse(page?.title ?? local)}](${local})`;
      },
    );
}

/** Continuation lines indented to sit inside a list item. */
function indentItem(markdown: string): string {
  return markdown
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : `  ${line}`))
    .join('\n');
}

/** The Markdown of one export's section. */
/** A guide page's name in a list: its title, with its menu folder when another page has it too. */
export function guideLabel(page: GuidePage, guides: readonly GuidePage[]): string {
  const shared = guides.some((other) => other !== page && other.title === page.title);
  const folder = page.route.split('/')[1];
  const label =
    shared && page.route.split('/').length > 2 ? `${page.title} (${folder})` : page.title;
  return escapeProse(label);
}

export function symbolSection(
  symbol: ApiSymbol,
  context: PageContext,
  usedIn: GuidePage[],
): string {
  const parts: string[] = [];
  parts.push(`### ${symbol.name} {/* #${symbol.name} */}`);
  parts.push(`**${kindNames[symbol.kind]}**, declared in \`${symbol.package}/${symbol.source}\`.`);
  if (symbol.declarations.length > 0) {
    const meta =
      Object.keys(symbol.references).length > 0 ? ` ${refsMetaValue(symbol.references)}` : '';
    parts.push(`\`\`\`ts${meta}\n${symbol.declarations.join('\n\n')}\n\`\`\``);
  }
  if (symbol.deprecated !== null) {
    const reason = commentMarkdown(symbol.deprecated, context);
    parts.push(`:::warning[Deprecated]\n\n${reason || 'Deprecated in this version.'}\n\n:::`);
  }
  if (symbol.doc) parts.push(commentMarkdown(symbol.doc, context));
  if (symbol.members.length > 0) {
    parts.push(
      `**Members**\n\n${symbol.members
        .map(
          (member) => `- \`${member.name}\`: ${indentItem(commentMarkdown(member.doc, context))}`,
        )
        .join('\n')}`,
    );
  }
  if (symbol.see.length > 0) {
    const items = symbol.see.map((see) => commentMarkdown(see, context));
    parts.push(`**See also:** ${[...new Set(items)].join(', ')}`);
  }
  if (usedIn.length > 0) {
    parts.push(
      `**Used in:** ${usedIn.map((page) => `[${guideLabel(page, context.guides)}](${page.route})`).join(', ')}`,
    );
  }
  // The section is one search record of its own, cut out of the page's (./step.ts).
  return [`<section data-api-entry="${symbol.name}">`, ...parts, '</section>'].join('\n\n');
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

/** The page of one package. */
export function packagePage(pkg: ReferencePackage, model: ApiModel, context: PageContext): string {
  const data = model.packages.find((item) => item.name === pkg.name);
  if (!data) throw new Error(`[api-reference] the model has no ${pkg.name}`);
  const counts = kindOrder
    .map((kind) => [kind, data.symbols.filter((symbol) => symbol.kind === kind).length] as const)
    .filter(([, count]) => count > 0);
  const lines: string[] = [
    '---',
    `title: ${yamlString(pkg.name)}`,
    `sidebar_label: ${yamlString(pkg.name)}`,
    `description: ${yamlString(pkg.description)}`,
    'api_reference: true',
    '---',
    '',
    `# ${pkg.name}`,
    '',
    `Version ${data.version}, read from the package's type declarations: ${data.symbols.length} exports ` +
      `(${counts.map(([kind, count]) => `${count} ${(count === 1 ? kindNames[kind] : kindLabels[kind]).toLowerCase()}`).join(', ')}). ` +
      'Each entry shows the declaration as TypeScript, with the names it uses linked to their own ' +
      "entries, the package's own comment, and the guide pages whose samples import it.",
  ];
  for (const kind of kindOrder) {
    const symbols = data.symbols.filter((symbol) => symbol.kind === kind);
    if (symbols.length === 0) continue;
    lines.push('', `## ${kindLabels[kind]}`);
    for (const symbol of symbols) {
      const key = `${symbol.package}#${symbol.name}`;
      const usedIn = context.guides.filter((page) => page.imports.has(key));
      lines.push('', symbolSection(symbol, context, usedIn));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Every page: path under `docs/` -> content. */
export function referencePages(model: ApiModel, context: PageContext): Map<string, string> {
  const pages = new Map<string, string>();
  for (const pkg of referencePackages)
    pages.set(`${pkg.route}.md`, packagePage(pkg, model, context));
  return pages;
}

/** The URL of an export's entry, or undefined when the model has no such export. */
export function resolverFor(
  model: ApiModel,
  baseUrl = '/',
): (pkg: string, name: string) => string | undefined {
  const names = new Map(
    model.packages.map((item) => [item.name, new Set(item.symbols.map((symbol) => symbol.name))]),
  );
  return (packageName, name) => {
    const pkg = referencePackages.find((item) => item.name === packageName);
    return pkg && names.get(packageName)?.has(name) ? entryUrl(pkg, name, baseUrl) : undefined;
  };
}
