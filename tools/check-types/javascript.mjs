// @ts-check
/**
 * The JavaScript halves must use only names that the @nestjs/* packages really export: each
 * name they import from one is looked up in the keys of require(package) from tools/samples.
 */
import ts from 'typescript';

/** @typedef {import('./types').Sample} Sample */

/**
 * The names a JavaScript half imports from @nestjs/* packages, with the
 * 0-based line of each.
 * @param {string} code
 * @returns {{module: string, name: string, offset: number}[]}
 */
export function nestImportsOf(code) {
  const source = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @type {{module: string, name: string, offset: number}[]} */
  const found = [];
  for (const statement of source.statements) {
    if (
      !ts.isImportDeclaration(statement) ||
      !ts.isStringLiteral(statement.moduleSpecifier) ||
      !statement.moduleSpecifier.text.startsWith('@nestjs/')
    ) {
      continue;
    }
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) {
      continue;
    }
    for (const element of bindings.elements) {
      const name = (element.propertyName ?? element.name).text;
      const offset = source.getLineAndCharacterOfPosition(element.getStart(source)).line;
      found.push({module: statement.moduleSpecifier.text, name, offset});
    }
  }
  return found;
}

/**
 * Failures of JavaScript halves that import a name a package does not export.
 * @param {readonly Sample[]} samples
 * @param {(module: string) => Set<string> | string} exportsOf the runtime
 *   export names of a module, or why they could not be read
 * @returns {{sample: Sample, line: number, message: string}[]}
 */
export function checkJavaScriptImports(samples, exportsOf) {
  /** @type {{sample: Sample, line: number, message: string}[]} */
  const failures = [];
  for (const sample of samples) {
    if (sample.lang !== 'js') {
      continue;
    }
    for (const {module, name, offset} of nestImportsOf(sample.code)) {
      const names = exportsOf(module);
      if (typeof names === 'string') {
        failures.push({sample, line: sample.line + offset, message: names});
      } else if (!names.has(name)) {
        failures.push({
          sample,
          line: sample.line + offset,
          message: `JavaScript: '${name}' is not exported by ${module} at run time`,
        });
      }
    }
  }
  return failures;
}
