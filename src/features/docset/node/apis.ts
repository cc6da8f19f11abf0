/**
 * The NestJS APIs the pages introduce, for the docset's search index, named only where the
 * pages themselves say what they are:
 *
 * - a name counts when a TypeScript sample imports it from a `@nestjs/*` package (so it is a
 *   NestJS export, spelled as exported) and the prose mentions it in inline code;
 * - its kind comes from how the samples use it, across the site: `@Name` is a decorator,
 *   `implements Name` an interface, `Name.MEMBER` an enum, `new Name`, `extends Name` or
 *   `Name.method(` a class, `Name(` a function; a name only ever used as a type (`: Name`) or
 *   passed as a value has no kind that the samples show, and gets no entry;
 * - it points at the page that introduces it (`introducingPage`), at the section of its first
 *   mention there.
 */
import type {EntryType} from './searchIndex';

export type ApiKind = Extract<EntryType, 'Decorator' | 'Interface' | 'Enum' | 'Class' | 'Function'>;

/** When usages disagree, the first kind of this list wins (`@UseGuards` inside `applyDecorators(UseGuards(...))`). */
export const kindPriority: readonly ApiKind[] = [
  'Decorator',
  'Interface',
  'Enum',
  'Class',
  'Function',
];

/** The names imported from `@nestjs/*` packages, as exported (`A as B` gives `A`, used as `B`). */
export function nestImports(code: string): {name: string; local: string; from: string}[] {
  const found: {name: string; local: string; from: string}[] = [];
  const pattern = /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](@nestjs\/[^'"]+)['"]/g;
  for (const [, names = '', from = ''] of code.matchAll(pattern)) {
    for (const part of names.split(',')) {
      const match = /^\s*(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?\s*$/.exec(
        part,
      );
      if (match?.[1]) found.push({name: match[1], local: match[2] ?? match[1], from});
    }
  }
  return found;
}

/** The identifiers a sample imports from packages other than `@nestjs/*`. */
export function otherImports(code: string): Set<string> {
  const names = new Set<string>();
  const pattern = /import\s+(?:type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const [, clause = '', from = ''] of code.matchAll(pattern)) {
    if (from.startsWith('@nestjs/')) continue;
    for (const [identifier] of clause.matchAll(/[A-Za-z_$][\w$]*/g)) {
      if (identifier !== 'as' && identifier !== 'type') names.add(identifier);
    }
  }
  return names;
}

function escape(name: string): string {
  return name.replace(/\$/g, '\\$');
}

interface KindPatterns {
  readonly decorator: RegExp;
  readonly listed: RegExp;
  readonly enumMember: RegExp;
  readonly classUse: readonly RegExp[];
  readonly call: RegExp;
}

const patternCache = new Map<string, KindPatterns>();

/** The patterns of `usageKinds` for one name, compiled once. */
function kindPatterns(local: string): KindPatterns {
  const cached = patternCache.get(local);
  if (cached) return cached;
  const name = escape(local);
  const patterns: KindPatterns = {
    decorator: new RegExp(`@${name}\\b`),
    listed: new RegExp(`(^|[\\s,])${name}(\\s*<[^,]*>)?\\s*(,|$)`),
    enumMember: new RegExp(`(?<![\\w$.])${name}\\.[A-Z][A-Z0-9_]*\\b(?!\\s*\\()`),
    classUse: [
      new RegExp(`\\bnew\\s+${name}\\b`),
      // `class A extends Name`, not `interface A extends Name` nor a mixin `extends Name(...)`.
      new RegExp(`\\bclass\\s+[\\w$]+(\\s*<[^>]*>)?\\s+extends\\s+${name}\\b(?!\\s*\\()`),
      new RegExp(`(?<![\\w$.])${name}\\.[a-z]\\w*\\s*\\(`),
    ],
    call: new RegExp(`(?<![\\w$.@]|\\bnew\\s+)${name}\\s*\\(`),
  };
  patternCache.set(local, patterns);
  return patterns;
}

/** The kinds `local` is used as in `code`. */
export function usageKinds(code: string, local: string): Set<ApiKind> {
  const kinds = new Set<ApiKind>();
  // Most samples never use most names: one plain search first.
  if (!code.includes(local)) return kinds;
  const patterns = kindPatterns(local);
  if (patterns.decorator.test(code)) kinds.add('Decorator');
  for (const [, list = ''] of code.matchAll(/\bimplements\s+([^{]+)\{/g)) {
    if (patterns.listed.test(list.trim())) kinds.add('Interface');
  }
  if (patterns.enumMember.test(code)) kinds.add('Enum');
  if (patterns.classUse.some((pattern) => pattern.test(code))) kinds.add('Class');
  if (patterns.call.test(code)) kinds.add('Function');
  return kinds;
}

/** The kind that wins among `kinds`, if any. */
export function pickKind(kinds: ReadonlySet<ApiKind>): ApiKind | undefined {
  return kindPriority.find((kind) => kinds.has(kind));
}

const mentionCache = new Map<string, RegExp>();

/** Whether an inline code span of the prose names `name` (`Name`, `@Name()`, `Name.create()`, `Name(...)`). */
export function mentions(text: string, name: string): boolean {
  let pattern = mentionCache.get(name);
  if (!pattern) {
    pattern = new RegExp(`^@?${escape(name)}(\\(.*\\))?$|^${escape(name)}[.<(]`);
    mentionCache.set(name, pattern);
  }
  return text.includes(name) && pattern.test(text.trim());
}

export interface ApiPageInput {
  /** Docset file of the page. */
  readonly file: string;
  readonly typescript: readonly string[];
  readonly inlineCode: readonly {readonly text: string; readonly section?: string}[];
}

export interface ApiEntry {
  readonly name: string;
  readonly kind: ApiKind;
  /** `pipes.html#binding-pipes` */
  readonly path: string;
}

/** The name an entry shows: `@Controller()`, `forwardRef()`, `HttpException`. */
export function displayName(name: string, kind: ApiKind): string {
  if (kind === 'Decorator') return `@${name}()`;
  if (kind === 'Function') return `${name}()`;
  return name;
}

/**
 * The page that introduces an API, out of the pages that import it (in reading order): the one
 * whose prose mentions it most, unless an earlier page mentions it at least half as often (a
 * later page may use it more in another context: `@Post()` on a GraphQL page).
 */
export function introducingPage<P extends ApiPageInput>(
  pages: readonly P[],
  name: string,
): P | undefined {
  const counts = pages.map(
    (page) => page.inlineCode.filter((code) => mentions(code.text, name)).length,
  );
  const most = Math.max(0, ...counts);
  if (most === 0) return undefined;
  return pages.find((_, index) => (counts[index] ?? 0) * 2 >= most);
}

/** The API entries of the docset, from its pages in reading order. */
export function apiEntries(pages: readonly ApiPageInput[]): ApiEntry[] {
  // By package and name: `Query` of @nestjs/common (a route's query string) is not `Query` of
  // @nestjs/graphql (a resolver's query).
  const apis = new Map<string, {name: string; kinds: Set<ApiKind>; pages: ApiPageInput[]}>();
  for (const page of pages) {
    // What the page imports from Nest; each sample then counts unless it imports the same
    // identifier from another package (`Type` of class-transformer, `Request` of Express).
    const imported = nestImports(page.typescript.join('\n'));
    const others = page.typescript.map(otherImports);
    for (const {name, local, from} of imported) {
      const key = `${from} ${name}`;
      const api = apis.get(key) ?? {name, kinds: new Set<ApiKind>(), pages: []};
      if (!api.pages.includes(page)) api.pages.push(page);
      page.typescript.forEach((block, index) => {
        if (others[index]?.has(local)) return;
        for (const kind of usageKinds(block, local)) api.kinds.add(kind);
      });
      apis.set(key, api);
    }
  }
  const entries: ApiEntry[] = [];
  for (const [, api] of [...apis].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const kind = pickKind(api.kinds);
    const page = kind && introducingPage(api.pages, api.name);
    if (!kind || !page) continue;
    const first = page.inlineCode.find((code) => mentions(code.text, api.name));
    const anchor = first?.section ? `#${first.section}` : '';
    entries.push({name: displayName(api.name, kind), kind, path: `${page.file}${anchor}`});
  }
  return entries;
}
