// @ts-check
/**
 * What a sample imports and exports, read from its syntax tree, and the stub module that stands
 * for a relative import no sample on the page provides.
 */
import {posix} from 'node:path';
import ts from 'typescript';

/** @typedef {import('./types').Needs} Needs */

/**
 * The module key (a normalized posix path without extension) of a filename
 * or a resolved relative specifier.
 * @param {string} name
 */
export function moduleKey(name) {
  return posix.normalize(name.replace(/\\/g, '/')).replace(/\.(d\.ts|tsx?|jsx?|mjs|cjs)$/, '');
}

/** @param {string} specifier */
export function isRelative(specifier) {
  return specifier === '.' || specifier === '..' || /^\.\.?\//.test(specifier);
}

/**
 * The relative (and other) module specifiers a piece of code imports, with
 * what it needs from each.
 * @param {string} code
 * @returns {Map<string, Needs>}
 */
export function importsOf(code) {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  /** @type {Map<string, Needs>} */
  const imports = new Map();
  /** @param {string} specifier */
  const needs = (specifier) => {
    let entry = imports.get(specifier);
    if (!entry) {
      entry = {names: new Set(), default: false, implemented: new Set()};
      imports.set(specifier, entry);
    }
    return entry;
  };
  /** Local names bound to a module namespace: local -> specifier. @type {Map<string, string>} */
  const namespaces = new Map();
  /** Local names bound to an imported name: local -> [specifier, name]. @type {Map<string, [string, string]>} */
  const locals = new Map();

  /** @param {import('typescript').Node} node */
  const specifierOf = (node) =>
    node && ts.isStringLiteralLike(node) ? node.text : /** @type {string | null} */ (null);

  /**
   * Names taken from a module value: destructured or read as properties.
   * @param {import('typescript').Node} use the dynamic import / require call
   * @param {string} specifier
   */
  const namesFromValue = (use, specifier) => {
    const entry = needs(specifier);
    let node = use;
    while (
      node.parent &&
      (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent))
    ) {
      node = node.parent;
    }
    const parent = node.parent;
    if (parent && ts.isVariableDeclaration(parent) && parent.initializer === node) {
      if (ts.isObjectBindingPattern(parent.name)) {
        for (const element of parent.name.elements) {
          const name = element.propertyName ?? element.name;
          if (ts.isIdentifier(name)) {
            entry.names.add(name.text);
          }
        }
      } else if (ts.isIdentifier(parent.name)) {
        namespaces.set(parent.name.text, specifier);
      }
    } else if (
      parent &&
      ts.isPropertyAccessExpression(parent) &&
      parent.name.text === 'then' &&
      ts.isCallExpression(parent.parent)
    ) {
      // import('./x').then((m) => m.X)
      const callback = parent.parent.arguments[0];
      if (callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
        const parameter = callback.parameters[0];
        if (parameter && ts.isIdentifier(parameter.name)) {
          const name = parameter.name.text;
          /** @param {import('typescript').Node} inner */
          const visit = (inner) => {
            if (
              ts.isPropertyAccessExpression(inner) &&
              ts.isIdentifier(inner.expression) &&
              inner.expression.text === name
            ) {
              entry.names.add(inner.name.text);
            }
            ts.forEachChild(inner, visit);
          };
          visit(callback.body);
        } else if (parameter && ts.isObjectBindingPattern(parameter.name)) {
          for (const element of parameter.name.elements) {
            const bound = element.propertyName ?? element.name;
            if (ts.isIdentifier(bound)) {
              entry.names.add(bound.text);
            }
          }
        }
      }
    } else if (parent && ts.isPropertyAccessExpression(parent) && parent.expression === node) {
      entry.names.add(parent.name.text);
    }
  };

  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const specifier = specifierOf(node.moduleSpecifier);
      if (specifier !== null) {
        const entry = needs(specifier);
        const clause = node.importClause;
        if (clause?.name) {
          entry.default = true;
          locals.set(clause.name.text, [specifier, 'default']);
        }
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) {
          namespaces.set(bindings.name.text, specifier);
        } else if (bindings) {
          for (const element of bindings.elements) {
            const name = (element.propertyName ?? element.name).text;
            if (name === 'default') {
              entry.default = true;
            } else {
              entry.names.add(name);
            }
            locals.set(element.name.text, [specifier, name]);
          }
        }
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const specifier = specifierOf(node.moduleSpecifier);
      if (specifier !== null) {
        const entry = needs(specifier);
        const clause = node.exportClause;
        if (clause && ts.isNamedExports(clause)) {
          for (const element of clause.elements) {
            const name = (element.propertyName ?? element.name).text;
            if (name === 'default') {
              entry.default = true;
            } else {
              entry.names.add(name);
            }
          }
        }
      }
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      const specifier = specifierOf(node.moduleReference.expression);
      if (specifier !== null) {
        needs(specifier);
        namespaces.set(node.name.text, specifier);
      }
    } else if (ts.isCallExpression(node)) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const specifier = node.arguments.length === 1 ? specifierOf(node.arguments[0]) : null;
      if ((isDynamicImport || isRequire) && specifier !== null) {
        namesFromValue(node, specifier);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  // Namespace uses (`ns.X`, also in types: `ns.X`) and `implements` clauses.
  /** @param {import('typescript').Node} node */
  const uses = (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const specifier = namespaces.get(node.expression.text);
      if (specifier !== undefined) {
        needs(specifier).names.add(node.name.text);
      }
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
      const specifier = namespaces.get(node.left.text);
      if (specifier !== undefined) {
        needs(specifier).names.add(node.right.text);
      }
    } else if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword) {
      for (const type of node.types) {
        if (ts.isIdentifier(type.expression)) {
          const local = locals.get(type.expression.text);
          if (local && local[1] !== 'default') {
            needs(local[0]).implemented.add(local[1]);
          }
        }
      }
    }
    ts.forEachChild(node, uses);
  };
  uses(source);
  return imports;
}

/**
 * The names a module exports ('default' for a default export), or null when
 * it re-exports another module with `export *` (anything may come from it).
 * @param {string} code
 * @returns {Set<string> | null}
 */
export function exportsOf(code) {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  /** @type {Set<string>} */
  const names = new Set();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause) {
        return null;
      }
      if (ts.isNamedExports(clause)) {
        clause.elements.forEach((element) => names.add(element.name.text));
      } else {
        names.add(clause.name.text);
      }
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      names.add('default');
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (!modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
      continue;
    }
    if (modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) {
      names.add('default');
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) {
          names.add(declaration.name.text);
        }
      }
    } else if (
      (ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name &&
      ts.isIdentifier(statement.name)
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/**
 * The code of a stub module that exports `needs`' names as `any` (values and
 * types alike; an interface for a name a class implements).
 * @param {Needs} needs
 */
export function stubCode(needs) {
  const lines = ['// Generated stub: no sample on the page provides this module.'];
  // Optional type parameters, so that `Name<T>` works as well as `Name`.
  const parameters = '<T1 = any, T2 = any, T3 = any, T4 = any>';
  for (const name of [...needs.names].sort()) {
    lines.push(`export declare const ${name}: any;`);
    lines.push(
      needs.implemented.has(name)
        ? `export interface ${name}${parameters} {}`
        : `export type ${name}${parameters} = any;`,
    );
  }
  if (needs.default) {
    lines.push(
      'declare const __default: any;',
      `type __default${parameters} = any;`,
      'export default __default;',
    );
  }
  if (lines.length === 1) {
    lines.push('export {};');
  }
  return lines.join('\n') + '\n';
}
