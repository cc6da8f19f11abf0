/**
 * Reads the API of the pinned packages from their declaration files with the TypeScript compiler
 * API: one program over every package's `index.d.ts`, the checker's list of each entry module's
 * exports, and for each export its kind, its declarations as printed TypeScript (overloads,
 * members), its doc comment and `@see` tags, its source file, and the names in its declarations
 * that are themselves entries (resolved by the checker, so a local `Type` import and the exported
 * `Type` are the same symbol).
 *
 * Node-only (the `typescript` package reads files).
 */
import {readFileSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import ts from 'typescript';
import {
  modelFormat,
  symbolKey,
  type ApiKind,
  type ApiMember,
  type ApiModel,
  type ApiPackage,
  type ApiSymbol,
} from '../model';
import {referencePackages} from '../packages';

/** Compiler options close to a Nest 8 project's; only declaration files are read. */
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2021,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  skipLibCheck: true,
  noEmit: true,
  // The packages' own `/// <reference types>` bring what they need (node, express...).
  types: [],
};

/** A type that is only decorators: `MethodDecorator & ClassDecorator`, `CustomDecorator<string>`. */
const decoratorType = /^[\w.]*Decorator(<[^<>]*>)?(\s*[&|]\s*[\w.]*Decorator(<[^<>]*>)?)*$/;

function isPrivate(member: ts.Node): boolean {
  const flags = ts.getCombinedModifierFlags(member as ts.Declaration);
  if (flags & ts.ModifierFlags.Private) return true;
  const name = (member as ts.NamedDeclaration).name;
  return name !== undefined && ts.isPrivateIdentifier(name);
}

/** A node's text without `export`, `declare` and `default` in front. */
function bareText(node: ts.Node, source: ts.SourceFile): string {
  return node
    .getText(source)
    .replace(/^(export\s+)?(default\s+)?(declare\s+)?/, '')
    .trim();
}

/**
 * A member's text indented by two spaces inside its printed class: its continuation lines (an
 * object type across lines) lose the member's own indentation in the file.
 */
function memberText(member: ts.Node, source: ts.SourceFile): string {
  const column = source.getLineAndCharacterOfPosition(member.getStart(source)).character;
  return member
    .getText(source)
    .split('\n')
    .map((line, i) => {
      if (i === 0) return `  ${line}`;
      const indent = /^ */.exec(line)![0].length;
      return `  ${line.slice(Math.min(indent, column))}`;
    })
    .join('\n');
}

/** A class or interface: its header, then its public and protected members, one per line. */
function printContainer(
  node: ts.ClassDeclaration | ts.InterfaceDeclaration,
  source: ts.SourceFile,
): string {
  // `members.pos` is just past the opening brace.
  const header = source.text
    .slice(node.getStart(source), node.members.pos)
    .replace(/^(export\s+)?(default\s+)?(declare\s+)?/, '')
    .replace(/\{\s*$/, '')
    .trim();
  const members = node.members
    .filter((member) => !isPrivate(member))
    .map((member) => memberText(member, source));
  return members.length === 0 ? `${header} {}` : `${header} {\n${members.join('\n')}\n}`;
}

function printEnum(node: ts.EnumDeclaration, source: ts.SourceFile): string {
  const name = node.name.getText(source);
  const isConst = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ConstKeyword);
  const members = node.members.map((member) => `  ${member.getText(source)},`);
  return `${isConst ? 'const ' : ''}enum ${name} {\n${members.join('\n')}\n}`;
}

/** The printed TypeScript of one declaration. */
function printDeclaration(node: ts.Declaration, source: ts.SourceFile): string | null {
  if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) {
    return printContainer(node, source);
  }
  if (ts.isEnumDeclaration(node)) return printEnum(node, source);
  if (ts.isFunctionDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
    return bareText(node, source);
  }
  if (ts.isVariableDeclaration(node)) {
    const list = node.parent;
    const keyword =
      list.flags & ts.NodeFlags.Const ? 'const' : list.flags & ts.NodeFlags.Let ? 'let' : 'var';
    return `${keyword} ${node.getText(source)};`;
  }
  if (ts.isModuleDeclaration(node)) {
    return `namespace ${node.name.getText(source)} {}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Doc comments.

/** Display parts as Markdown: `{@link X}` becomes `` `X` `` (the page writer links it). */
function partsToMarkdown(parts: readonly ts.SymbolDisplayPart[] | undefined): string {
  if (!parts) return '';
  let out = '';
  let inLink = false;
  let linkTarget = '';
  let linkText = '';
  for (const part of parts) {
    if (part.kind === 'link') {
      if (part.text.startsWith('{@link')) {
        inLink = true;
        linkTarget = '';
        linkText = '';
      } else if (inLink) {
        out += linkText.trim() || linkTarget ? `\`${(linkText.trim() || linkTarget).trim()}\`` : '';
        inLink = false;
      }
      continue;
    }
    if (inLink) {
      if (part.kind === 'linkName') linkTarget += part.text;
      else linkText += part.text;
      continue;
    }
    out += part.text;
  }
  return out.trim();
}

function tagText(tag: ts.JSDocTagInfo): string {
  return partsToMarkdown(tag.text);
}

interface Documentation {
  doc: string;
  see: string[];
  deprecated: string | null;
}

/** Doc comment text, `@usageNotes` and `@see` / `@deprecated` tags of a symbol or signature. */
function documentation(
  comment: readonly ts.SymbolDisplayPart[],
  tags: readonly ts.JSDocTagInfo[],
): Documentation {
  const sections = [partsToMarkdown(comment)];
  const see: string[] = [];
  let deprecated: string | null = null;
  for (const tag of tags) {
    const text = tagText(tag);
    switch (tag.name) {
      case 'see':
        if (text) see.push(text);
        break;
      case 'deprecated':
        deprecated = text;
        break;
      case 'usageNotes':
      case 'description':
      case 'remarks':
      case 'example':
        if (text) sections.push(text);
        break;
      default:
        break;
    }
  }
  return {doc: sections.filter(Boolean).join('\n\n'), see, deprecated};
}

// ---------------------------------------------------------------------------------------------
// Kinds.

function returnsDecorator(signatures: readonly ts.Signature[], checker: ts.TypeChecker): boolean {
  return (
    signatures.length > 0 &&
    signatures.every((signature) =>
      decoratorType.test(checker.typeToString(checker.getReturnTypeOfSignature(signature))),
    )
  );
}

function kindOf(symbol: ts.Symbol, checker: ts.TypeChecker): ApiKind {
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    const type = declaration
      ? checker.getTypeOfSymbolAtLocation(symbol, declaration)
      : checker.getDeclaredTypeOfSymbol(symbol);
    if (returnsDecorator(type.getCallSignatures(), checker)) return 'decorator';
    if (flags & ts.SymbolFlags.Function) return 'function';
    if (flags & ts.SymbolFlags.Interface) return 'interface';
    return 'constant';
  }
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  if (flags & ts.SymbolFlags.Module) return 'namespace';
  return 'constant';
}

// ---------------------------------------------------------------------------------------------
// References: the names in a declaration that are entries of the reference.

function collectReferences(
  nodes: readonly ts.Node[],
  checker: ts.TypeChecker,
  entries: ReadonlyMap<ts.Symbol, string>,
  self: string,
): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      // Names being declared and property names are not references.
      const declared = (parent as ts.NamedDeclaration | undefined)?.name === node;
      const property =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isQualifiedName(parent) && parent.right === node);
      if (!declared && !property) {
        let symbol = checker.getSymbolAtLocation(node);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias)
          symbol = checker.getAliasedSymbol(symbol);
        const key = symbol ? entries.get(symbol) : undefined;
        if (key && key !== self && found[node.text] === undefined) found[node.text] = key;
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const node of nodes) visit(node);
  return found;
}

// ---------------------------------------------------------------------------------------------

/** The folder of an installed package, from the folder holding `node_modules`. */
export function packageDir(modulesRoot: string, name: string): string {
  return join(modulesRoot, 'node_modules', ...name.split('/'));
}

function memberName(member: ts.Node, source: ts.SourceFile): string | null {
  if (ts.isConstructorDeclaration(member)) return 'constructor';
  const name = (member as ts.NamedDeclaration).name;
  return name ? name.getText(source) : null;
}

/** The documented members of a class, interface or enum declaration. */
function membersOf(declarations: readonly ts.Declaration[], checker: ts.TypeChecker): ApiMember[] {
  const members: ApiMember[] = [];
  const seen = new Set<string>();
  for (const declaration of declarations) {
    if (
      !ts.isClassDeclaration(declaration) &&
      !ts.isInterfaceDeclaration(declaration) &&
      !ts.isEnumDeclaration(declaration)
    ) {
      continue;
    }
    const source = declaration.getSourceFile();
    for (const member of declaration.members as ts.NodeArray<ts.Node>) {
      if (isPrivate(member)) continue;
      const name = memberName(member, source);
      if (!name || seen.has(name)) continue;
      const symbol = (member as {symbol?: ts.Symbol}).symbol;
      let doc: Documentation;
      if (
        ts.isConstructorDeclaration(member) ||
        ts.isMethodSignature(member) ||
        ts.isMethodDeclaration(member)
      ) {
        const signature = checker.getSignatureFromDeclaration(member as ts.SignatureDeclaration);
        doc = signature
          ? documentation(signature.getDocumentationComment(checker), signature.getJsDocTags())
          : {doc: '', see: [], deprecated: null};
      } else if (symbol) {
        doc = documentation(symbol.getDocumentationComment(checker), symbol.getJsDocTags(checker));
      } else {
        continue;
      }
      const text = [
        doc.deprecated !== null ? `**Deprecated.** ${doc.deprecated}`.trim() : '',
        doc.doc,
        ...doc.see.map((see) => `See ${see}.`),
      ]
        .filter(Boolean)
        .join('\n\n');
      if (!text) continue;
      seen.add(name);
      members.push({name, doc: text});
    }
  }
  return members;
}

/** Extracts the model of every reference package installed under `modulesRoot/node_modules`. */
export function extractModel(modulesRoot: string): ApiModel {
  const entries = referencePackages.map((pkg) =>
    join(packageDir(modulesRoot, pkg.name), 'index.d.ts'),
  );
  const program = ts.createProgram(entries, options);
  const checker = program.getTypeChecker();

  // Every exported symbol of every package first, so that references resolve across packages.
  const exportsByPackage = referencePackages.map((pkg, i) => {
    const source = program.getSourceFile(entries[i]);
    if (!source) throw new Error(`[api-reference] ${pkg.name} has no ${entries[i]}`);
    const module = checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`[api-reference] ${entries[i]} is not a module`);
    const list = checker
      .getExportsOfModule(module)
      .map((exported) => ({
        exported,
        target:
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
      }))
      .sort((a, b) => a.exported.name.localeCompare(b.exported.name, 'en'));
    return {pkg, list};
  });
  const entryKeys = new Map<ts.Symbol, string>();
  for (const {pkg, list} of exportsByPackage) {
    for (const {exported, target} of list) {
      // The first package that exports a symbol owns it (core re-exports nothing of common's).
      if (!entryKeys.has(target)) entryKeys.set(target, symbolKey(pkg.name, exported.name));
    }
  }

  const packages: ApiPackage[] = exportsByPackage.map(({pkg, list}) => {
    const dir = packageDir(modulesRoot, pkg.name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      version: string;
      description?: string;
    };
    const symbols = list.map(({exported, target}): ApiSymbol => {
      const declarations = target.declarations ?? [];
      const printed = declarations
        .map((declaration) => printDeclaration(declaration, declaration.getSourceFile()))
        .filter((text): text is string => text !== null);
      const first = declarations[0];
      const source = first
        ? relative(dir, first.getSourceFile().fileName).split(sep).join('/')
        : '';
      // Each overload of a function carries its own comment: the first documented one is the
      // entry's text (the symbol's comment would repeat them all), the `@see` tags of all count.
      let doc = documentation(
        target.getDocumentationComment(checker),
        target.getJsDocTags(checker),
      );
      const overloads = declarations.filter(ts.isFunctionDeclaration);
      if (overloads.length > 1) {
        const perOverload = overloads.map((declaration) => {
          const signature = checker.getSignatureFromDeclaration(declaration);
          return signature
            ? documentation(signature.getDocumentationComment(checker), signature.getJsDocTags())
            : null;
        });
        const first = perOverload.find((item) => item?.doc) ?? perOverload[0];
        if (first) {
          doc = {
            doc: first.doc,
            see: [...new Set(perOverload.flatMap((item) => item?.see ?? []))],
            deprecated: first.deprecated,
          };
        }
      }
      doc = {...doc, see: [...new Set(doc.see)]};
      const key = symbolKey(pkg.name, exported.name);
      return {
        name: exported.name,
        kind: kindOf(target, checker),
        package: pkg.name,
        declarations: printed,
        doc: doc.doc,
        see: doc.see,
        deprecated: doc.deprecated,
        source: source.startsWith('..')
          ? source.replace(/^(\.\.\/)+(node_modules\/)?/, '')
          : source,
        members: membersOf(declarations, checker),
        references: collectReferences(declarations, checker, entryKeys, key),
      };
    });
    return {
      name: pkg.name,
      version: manifest.version,
      description: manifest.description ?? '',
      symbols,
    };
  });
  return {format: modelFormat, packages};
}
