/**
 * The API reference's data: what the extractor (./node/extract.ts) reads from the packages'
 * declaration files, and what the page writer (./node/pages.ts), the sample links
 * (./node/sampleLinks.ts) and the search step (./node/step.ts) read back. Plain JSON, so
 * it can be cached between builds.
 */

/** What an export is, as the reference names it. */
export type ApiKind =
  | 'decorator'
  | 'class'
  | 'interface'
  | 'type'
  | 'function'
  | 'enum'
  | 'constant'
  | 'namespace';

/** The order of the kinds on a package page, and their headings. */
export const kindOrder: readonly ApiKind[] = [
  'decorator',
  'class',
  'interface',
  'type',
  'function',
  'enum',
  'constant',
  'namespace',
];

export const kindLabels: Readonly<Record<ApiKind, string>> = {
  decorator: 'Decorators',
  class: 'Classes',
  interface: 'Interfaces',
  type: 'Types',
  function: 'Functions',
  enum: 'Enums',
  constant: 'Constants',
  namespace: 'Namespaces',
};

export const kindNames: Readonly<Record<ApiKind, string>> = {
  decorator: 'Decorator',
  class: 'Class',
  interface: 'Interface',
  type: 'Type',
  function: 'Function',
  enum: 'Enum',
  constant: 'Constant',
  namespace: 'Namespace',
};

/** A documented member of a class, interface or enum. */
export interface ApiMember {
  readonly name: string;
  /** The doc comment, as Markdown (links already resolved to the reference where possible). */
  readonly doc: string;
}

/** One export of one package. */
export interface ApiSymbol {
  /** The exported name (`UseGuards`). */
  readonly name: string;
  readonly kind: ApiKind;
  /** The npm package (`@nestjs/common`). */
  readonly package: string;
  /**
   * The declarations as TypeScript, without doc comments or `export declare`: one per overload
   * of a function; a class or interface with its public and protected members.
   */
  readonly declarations: readonly string[];
  /** The doc comment's text, as Markdown. */
  readonly doc: string;
  /** `@see` targets, as Markdown (a link or a plain reference). */
  readonly see: readonly string[];
  /** `@deprecated` text ('' when deprecated without a reason), or null. */
  readonly deprecated: string | null;
  /** The declaration file, from the package folder (`decorators/core/use-guards.decorator.d.ts`). */
  readonly source: string;
  /** The members that carry a doc comment, in declaration order. */
  readonly members: readonly ApiMember[];
  /**
   * The names the declarations refer to that are entries of the reference, as the checker
   * resolved them: name -> `package#name` key.
   */
  readonly references: Readonly<Record<string, string>>;
}

/** One package. */
export interface ApiPackage {
  readonly name: string;
  readonly version: string;
  /** The package's description from its package.json. */
  readonly description: string;
  readonly symbols: readonly ApiSymbol[];
}

export interface ApiModel {
  /** Bump when the shape changes: cached models of another version are thrown away. */
  readonly format: number;
  readonly packages: readonly ApiPackage[];
}

export const modelFormat = 1;

/** The key of a symbol across packages: `@nestjs/common#UseGuards`. */
export function symbolKey(packageName: string, name: string): string {
  return `${packageName}#${name}`;
}
