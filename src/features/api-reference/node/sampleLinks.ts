/**
 * Which identifiers of a code sample name an export of the reference, found with the TypeScript
 * parser (both halves of a pair: the parser reads Babel-style JavaScript too).
 *
 * - A sample's bindings come from its `import ... from '@nestjs/x'` declarations (named,
 *   renamed, namespace) and its `require('@nestjs/x')` destructurings; the imported names on
 *   those lines are links too.
 * - An identifier links when it refers to such a binding: not a property name (`app.Get`,
 *   `{Get: 1}`), not a declaration's own name, and not shadowed by a nearer declaration of the
 *   same name (a parameter, a local variable, a type parameter...). Comments and strings are
 *   not identifiers, so they never link.
 * - An API signature block has no imports: its bindings are given (the names the checker
 *   resolved to entries, ./extract.ts).
 *
 * A class-member fragment (as check:samples accepts it) is read inside a wrapper class, as
 * there. Node-only.
 */
import ts from 'typescript';
import {fragmentReadings} from '../../markdown/fragment.mjs';
import {shownLineIndex, type CodeLink} from '../codeLinks';
import {referencePackageOf} from '../packages';

/** An import of a reference package: the local name, the package, the imported name. */
export interface ImportBinding {
  readonly local: string;
  readonly package: string;
  /** The exported name, or null for a namespace binding (`import * as common`). */
  readonly imported: string | null;
}

/** Where a binding's URL comes from: `(package, name) => url`, undefined for no entry. */
export type Resolve = (packageName: string, name: string) => string | undefined;

const fragmentOpen = 'class __Fragment {';

function parse(code: string, lang: 'ts' | 'js'): ts.SourceFile {
  return ts.createSourceFile(
    lang === 'ts' ? 'sample.ts' : 'sample.js',
    code,
    ts.ScriptTarget.Latest,
    true,
    lang === 'ts' ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
}

function hasErrors(source: ts.SourceFile): boolean {
  // parseDiagnostics is internal but stable (scripts/check-samples.mjs reads it too).
  const diagnostics = (source as unknown as {parseDiagnostics?: unknown[]}).parseDiagnostics;
  return (diagnostics?.length ?? 0) > 0;
}

/** A parsed sample and how to map its lines back to the sample's. */
interface Parsed {
  readonly source: ts.SourceFile;
  /** The sample line of a parsed line (the wrapper's lines map to -1). */
  readonly lineOf: (line: number) => number;
}

/** The sample as a file, else as class members (after its imports), as check:samples reads it. */
export function parseSample(code: string, lang: 'ts' | 'js'): Parsed {
  const asIs = parse(code, lang);
  if (!hasErrors(asIs)) return {source: asIs, lineOf: (line) => line};
  const lines = code.split('\n');
  for (const {split, code: wrapped} of fragmentReadings(lines, fragmentOpen)) {
    const source = parse(wrapped, lang);
    if (!hasErrors(source)) {
      return {
        source,
        lineOf: (line) =>
          line < split ? line : line === split || line > lines.length ? -1 : line - 1,
      };
    }
  }
  // Neither reading parses: the file reading still finds what it can.
  return {source: asIs, lineOf: (line) => line};
}

function stringOf(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    ? node.text
    : undefined;
}

/** `require('x')` → 'x'. */
function requiredModule(node: ts.Node | undefined): string | undefined {
  if (!node || !ts.isCallExpression(node)) return undefined;
  if (!ts.isIdentifier(node.expression) || node.expression.text !== 'require') return undefined;
  return stringOf(node.arguments[0]);
}

/** The identifiers on import lines that name an imported export, with their binding. */
interface Imports {
  readonly bindings: Map<string, ImportBinding>;
  /** Identifier nodes on the import lines that are links (the imported names). */
  readonly named: Map<ts.Identifier, ImportBinding>;
  /** Nodes that declare a binding (their names are not references). */
  readonly declaring: Set<ts.Node>;
}

function collectImports(source: ts.SourceFile): Imports {
  const bindings = new Map<string, ImportBinding>();
  const named = new Map<ts.Identifier, ImportBinding>();
  const declaring = new Set<ts.Node>();
  const add = (nameNode: ts.Identifier, binding: ImportBinding, linked: ts.Identifier | null) => {
    bindings.set(binding.local, binding);
    declaring.add(nameNode);
    if (linked) named.set(linked, binding);
  };
  /** `{Get}` / `{Get as G}` of an import, `{Get}` / `{Get: G}` of a require destructuring. */
  const addNamed = (element: ts.ImportSpecifier | ts.BindingElement, packageName: string): void => {
    const imported = element.propertyName ?? element.name;
    if (!ts.isIdentifier(element.name) || !ts.isIdentifier(imported)) return;
    add(
      element.name,
      {local: element.name.text, package: packageName, imported: imported.text},
      imported,
    );
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const pkg = referencePackageOf(stringOf(node.moduleSpecifier) ?? '');
      const clause = node.importClause;
      if (pkg && clause?.namedBindings) {
        if (ts.isNamespaceImport(clause.namedBindings)) {
          const name = clause.namedBindings.name;
          add(name, {local: name.text, package: pkg.name, imported: null}, null);
        } else {
          for (const element of clause.namedBindings.elements) addNamed(element, pkg.name);
        }
      }
      return;
    }
    if (ts.isVariableDeclaration(node)) {
      const pkg = referencePackageOf(requiredModule(node.initializer) ?? '');
      if (pkg && ts.isObjectBindingPattern(node.name)) {
        for (const element of node.name.elements) addNamed(element, pkg.name);
      } else if (pkg && ts.isIdentifier(node.name)) {
        add(node.name, {local: node.name.text, package: pkg.name, imported: null}, null);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return {bindings, named, declaring};
}

/** The imports of reference packages in a sample (for "Used in"). */
export function sampleImports(code: string, lang: 'ts' | 'js'): ImportBinding[] {
  return [...collectImports(parseSample(code, lang).source).bindings.values()];
}

// ---------------------------------------------------------------------------------------------
// Scopes.

function bindingNames(name: ts.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) {
    into.add(name.text);
    return;
  }
  for (const element of name.elements) {
    if (ts.isBindingElement(element)) bindingNames(element.name, into);
  }
}

/** The names a statement list declares for its block. */
function statementNames(statements: readonly ts.Statement[], into: Set<string>): void {
  for (const statement of statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        bindingNames(declaration.name, into);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement)) &&
      statement.name
    ) {
      into.add(statement.name.text);
    }
  }
}

/** The names a node declares for the code inside it (not counting the file's own scope). */
function scopeNames(node: ts.Node): Set<string> {
  const names = new Set<string>();
  if (ts.isBlock(node) || ts.isModuleBlock(node)) statementNames(node.statements, names);
  if (ts.isCaseBlock(node)) {
    for (const clause of node.clauses) statementNames(clause.statements, names);
  }
  if (ts.isFunctionLike(node)) {
    for (const parameter of node.parameters) bindingNames(parameter.name, names);
    for (const parameter of node.typeParameters ?? []) names.add(parameter.name.text);
    if (ts.isFunctionExpression(node) && node.name) names.add(node.name.text);
  }
  if (
    (ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) &&
    node.typeParameters
  ) {
    for (const parameter of node.typeParameters) names.add(parameter.name.text);
  }
  if (ts.isClassExpression(node) && node.name) names.add(node.name.text);
  if (ts.isMappedTypeNode(node)) names.add(node.typeParameter.name.text);
  if (ts.isInferTypeNode(node)) names.add(node.typeParameter.name.text);
  if (
    (ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) &&
    node.initializer &&
    ts.isVariableDeclarationList(node.initializer)
  ) {
    for (const declaration of node.initializer.declarations) bindingNames(declaration.name, names);
  }
  if (ts.isCatchClause(node) && node.variableDeclaration) {
    bindingNames(node.variableDeclaration.name, names);
  }
  return names;
}

/** Whether a declaration nearer than the file declares `name` around `node`. */
function shadowed(node: ts.Node, name: string, cache: Map<ts.Node, Set<string>>): boolean {
  for (let scope = node.parent; scope && !ts.isSourceFile(scope); scope = scope.parent) {
    let names = cache.get(scope);
    if (!names) {
      names = scopeNames(scope);
      cache.set(scope, names);
    }
    if (names.has(name)) return true;
  }
  // A declaration of the same name in the file itself (other than the import) wins too.
  const file = node.getSourceFile();
  let top = cache.get(file);
  if (!top) {
    top = new Set<string>();
    // `const {Get} = require('@nestjs/common')` is the import itself, not a declaration over it.
    statementNames(
      file.statements.filter(
        (statement) =>
          !ts.isVariableStatement(statement) ||
          !statement.declarationList.declarations.some((declaration) =>
            referencePackageOf(requiredModule(declaration.initializer) ?? ''),
          ),
      ),
      top,
    );
    cache.set(file, top);
  }
  return top.has(name);
}

/** Whether an identifier is a reference (not a declared name, not a property name). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent)) {
    return false;
  }
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  if ((parent as ts.NamedDeclaration).name === node) return false;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  if (ts.isMetaProperty(parent)) return false;
  return true;
}

/**
 * The member an identifier names on a namespace binding (`common.Get`, `common.Type<T>`), if
 * the identifier is that member's name.
 */
function namespaceMember(node: ts.Identifier): ts.Identifier | undefined {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
    return ts.isIdentifier(parent.expression) ? parent.expression : undefined;
  }
  if (ts.isQualifiedName(parent) && parent.right === node) {
    return ts.isIdentifier(parent.left) ? parent.left : undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

interface Found {
  readonly node: ts.Identifier;
  readonly url: string;
}

function findLinks(
  parsed: Parsed,
  bindings: ReadonlyMap<string, ImportBinding>,
  named: ReadonlyMap<ts.Identifier, ImportBinding>,
  declaring: ReadonlySet<ts.Node>,
  resolve: Resolve,
): Found[] {
  const found: Found[] = [];
  const cache = new Map<ts.Node, Set<string>>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const direct = named.get(node);
      if (direct?.imported) {
        const url = resolve(direct.package, direct.imported);
        if (url) found.push({node, url});
      } else if (!declaring.has(node)) {
        const owner = namespaceMember(node);
        const namespace = owner ? bindings.get(owner.text) : undefined;
        if (owner && namespace && namespace.imported === null) {
          if (!shadowed(owner, owner.text, cache)) {
            const url = resolve(namespace.package, node.text);
            if (url) found.push({node, url});
          }
        } else if (isReference(node)) {
          const binding = bindings.get(node.text);
          if (binding?.imported && !shadowed(node, node.text, cache)) {
            const url = resolve(binding.package, binding.imported);
            if (url) found.push({node, url});
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed.source);
  return found;
}

/** The found identifiers as links in the lines the block shows. */
function toLinks(code: string, parsed: Parsed, found: readonly Found[]): CodeLink[] {
  const shown = shownLineIndex(code);
  const links: CodeLink[] = [];
  for (const {node, url} of found) {
    const start = node.getStart(parsed.source);
    const position = parsed.source.getLineAndCharacterOfPosition(start);
    const line = parsed.lineOf(position.line);
    const shownLine = line < 0 ? -1 : (shown[line] ?? -1);
    if (shownLine < 0) continue;
    links.push({line: shownLine, column: position.character, length: node.text.length, url});
  }
  return links.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The links of a sample: its imports of reference packages and their uses. */
export function sampleLinks(code: string, lang: 'ts' | 'js', resolve: Resolve): CodeLink[] {
  const parsed = parseSample(code, lang);
  const {bindings, named, declaring} = collectImports(parsed.source);
  if (bindings.size === 0) return [];
  return toLinks(code, parsed, findLinks(parsed, bindings, named, declaring, resolve));
}

/**
 * The links of an API signature block: `references` maps the names the checker resolved to
 * entries to their `package#name` keys (./extract.ts).
 */
export function signatureLinks(
  code: string,
  references: Readonly<Record<string, string>>,
  resolve: Resolve,
): CodeLink[] {
  const bindings = new Map<string, ImportBinding>();
  for (const [local, key] of Object.entries(references)) {
    const hash = key.lastIndexOf('#');
    bindings.set(local, {local, package: key.slice(0, hash), imported: key.slice(hash + 1)});
  }
  if (bindings.size === 0) return [];
  const parsed = parseSample(code, 'ts');
  return toLinks(code, parsed, findLinks(parsed, bindings, new Map(), new Set(), resolve));
}
