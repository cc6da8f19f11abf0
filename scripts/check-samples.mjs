// @ts-check
// Checks that the code samples in the docs parse.
//   node scripts/check-samples.mjs [file-or-dir...]    (default: docs/)
//
// Every fence of docs/**/*.md(x) is read the way Docusaurus reads the page
// (MDX, front matter removed), then:
// - ts/typescript: the TypeScript half (before @@switch) must parse with the
//   TypeScript compiler, the JavaScript half (after @@switch) with Babel;
// - js/javascript: must parse with Babel (decorators-legacy, classProperties,
//   jsx; no TypeScript syntax);
// - json: JSON.parse; graphql: graphql's parse (SDL or operations);
// - other languages (bash, text, yaml, proto, ...) are skipped.
// A deliberate fragment (methods, a constructor) passes when it parses inside
// `class __Fragment { ... }`. Malformed @@ markers fail, with the same rules
// as the remark plugin (shared parser: src/features/markdown/markers.mjs).
//
// Prints `file:line: reason` per failure and `N samples checked, M failed`;
// exits 1 on any failure (2 on a usage error).
import {existsSync, readFileSync, realpathSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {parse as babelParse} from '@babel/parser';
import {parse as graphqlParse} from 'graphql';
import remarkDirective from 'remark-directive';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import ts from 'typescript';
import {unified} from 'unified';
import {visit} from 'unist-util-visit';
import {writtenMarkdownFiles} from '../src/features/markdown/node/files.mjs';
import {located} from '../src/features/markdown/location.mjs';
import {fragmentReadings} from '../src/features/markdown/fragment.mjs';
import {markerLanguage, parseFence} from '../src/features/markdown/markers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A parse failure inside a piece of code: `offset` is the 0-based line.
 * @typedef {{offset: number, reason: string}} CodeError
 */

/**
 * @typedef {{file: string, line: number, reason: string}} Failure
 * @typedef {{checked: number, failures: Failure[]}} Report
 */

const fragmentOpen = 'class __Fragment {';

/**
 * Tries `code` as-is, then as class members (`class __Fragment { ... }`),
 * then as imports followed by class members. When all fail, keeps the error
 * found furthest down: the reading that got further is the likelier intent.
 * @param {string} code
 * @param {(code: string) => CodeError | null} check
 * @returns {CodeError | null}
 */
function asIsOrFragment(code, check) {
  const asIs = check(code);
  if (!asIs) {
    return null;
  }
  const lines = code.split('\n');
  let best = asIs;
  for (const {split, code: wrapped} of fragmentReadings(lines, fragmentOpen)) {
    // The class opens on its own line after `split` lines and closes after the last one.
    const error = check(wrapped);
    if (!error) {
      return null;
    }
    const offset = Math.min(
      error.offset <= split ? error.offset : error.offset - 1,
      lines.length - 1,
    );
    if (offset > best.offset) {
      best = {...error, offset};
    }
  }
  return best;
}

/**
 * @param {string} code
 * @returns {CodeError | null}
 */
function typeScriptError(code) {
  const source = ts.createSourceFile(
    'sample.ts',
    code,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  /** @type {readonly import('typescript').DiagnosticWithLocation[]} */
  // parseDiagnostics is internal API, but stable for years and the cheapest syntax check.
  const diagnostics = /** @type {any} */ (source).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (!first) {
    return null;
  }
  const {line} = source.getLineAndCharacterOfPosition(first.start ?? 0);
  return {
    offset: line,
    reason: `TypeScript: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`,
  };
}

/**
 * @param {string} code
 * @returns {CodeError | null}
 */
function javaScriptError(code) {
  try {
    babelParse(code, {
      sourceType: 'module',
      plugins: ['decorators-legacy', 'classProperties', 'jsx'],
    });
    return null;
  } catch (error) {
    const {loc, message} = /** @type {{loc?: {line: number}, message: string}} */ (error);
    return {
      offset: loc ? loc.line - 1 : 0,
      reason: `JavaScript: ${message.replace(/ \(\d+:\d+\)$/, '')}`,
    };
  }
}

/** TypeScript syntax (a fragment is allowed). @param {string} code */
export function checkTypeScript(code) {
  return asIsOrFragment(code, typeScriptError);
}

/** JavaScript syntax, no TypeScript (a fragment is allowed). @param {string} code */
export function checkJavaScript(code) {
  return asIsOrFragment(code, javaScriptError);
}

/**
 * @param {string} code
 * @returns {CodeError | null}
 */
export function checkJson(code) {
  try {
    JSON.parse(code);
    return null;
  } catch (error) {
    const message = /** @type {Error} */ (error).message;
    const position = /position (\d+)/.exec(message);
    const lineColumn = /\(line (\d+) column \d+\)/.exec(message);
    const offset = lineColumn
      ? Number(lineColumn[1]) - 1
      : position
        ? code.slice(0, Number(position[1])).split('\n').length - 1
        : 0;
    return {offset, reason: `JSON: ${message}`};
  }
}

/**
 * @param {string} code
 * @returns {CodeError | null}
 */
export function checkGraphql(code) {
  try {
    graphqlParse(code);
    return null;
  } catch (error) {
    const {locations, message} = /** @type {import('graphql').GraphQLError} */ (error);
    return {offset: locations?.[0] ? locations[0].line - 1 : 0, reason: `GraphQL: ${message}`};
  }
}

/** @type {Record<string, (code: string) => CodeError | null>} */
const checkers = {
  json: checkJson,
  graphql: checkGraphql,
};

/**
 * Front matter as blank lines, so that line numbers stay those of the file.
 * @param {string} markdown
 */
function blankFrontMatter(markdown) {
  const match = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?=\r?\n|$)/.exec(markdown);
  return match ? match[0].replace(/[^\n]/g, '') + markdown.slice(match[0].length) : markdown;
}

/**
 * The fenced code blocks of a page, with the line of their opening fence.
 * The page is read as MDX, as Docusaurus does; when it is not valid MDX it
 * is read as plain Markdown and `mdxError` says why.
 * @param {string} markdown
 * @returns {{fences: {lang: string | null, value: string, line: number}[], mdxError: CodeError | null}}
 */
export function findFences(markdown) {
  const body = blankFrontMatter(markdown);
  /** @type {CodeError | null} */
  let mdxError = null;
  let tree;
  try {
    tree = unified().use(remarkParse).use(remarkMdx).use(remarkDirective).parse(body);
  } catch (error) {
    const {line, reason, message} =
      /** @type {{line?: number, reason?: string, message: string}} */ (error);
    mdxError = {offset: (line ?? 1) - 1, reason: `not valid MDX: ${reason ?? message}`};
    tree = unified().use(remarkParse).use(remarkDirective).parse(body);
  }
  /** @type {{lang: string | null, value: string, line: number}[]} */
  const fences = [];
  visit(tree, 'code', (node) => {
    fences.push({lang: node.lang ?? null, value: node.value, line: node.position?.start.line ?? 1});
  });
  return {fences, mdxError};
}

/**
 * Checks the samples of one page. `file` is only used in the report.
 * @param {string} markdown
 * @param {string} file
 * @returns {Report}
 */
export function checkMarkdown(markdown, file) {
  /** @type {Failure[]} */
  const failures = [];
  let checked = 0;
  const {fences, mdxError} = findFences(markdown);
  if (mdxError) {
    checked += 1;
    failures.push({file, line: mdxError.offset + 1, reason: mdxError.reason});
  }
  for (const fence of fences) {
    // The code starts on the line below the opening fence.
    const first = fence.line + 1;
    /**
     * @param {(code: string) => CodeError | null} check
     * @param {string} code
     * @param {number} offset
     */
    const run = (check, code, offset) => {
      checked += 1;
      const error = check(code);
      if (error) {
        failures.push({file, line: first + offset + error.offset, reason: error.reason});
      }
    };
    const language = markerLanguage(fence.lang);
    if (language) {
      const parsed = parseFence(fence.value, fence.lang);
      if (parsed.kind === 'error') {
        checked += 1;
        failures.push({file, line: first + parsed.offset, reason: parsed.reason});
      } else if (parsed.kind === 'plain') {
        run(language === 'ts' ? checkTypeScript : checkJavaScript, fence.value, 0);
      } else {
        if (parsed.ts) {
          run(checkTypeScript, parsed.ts.code, parsed.ts.offset);
        }
        if (parsed.js) {
          run(checkJavaScript, parsed.js.code, parsed.js.offset);
        }
      }
      continue;
    }
    const check = checkers[fence.lang?.toLowerCase() ?? ''];
    if (check) {
      run(check, fence.value, 0);
    }
  }
  return {checked, failures};
}

/**
 * Runs the check; returns the exit code.
 * @param {readonly string[]} args files or directories; none means docs/
 * @param {{log: (line: string) => void, error: (line: string) => void}} out
 * @returns {number}
 */
export function main(args, out = {log: console.log, error: console.error}) {
  const targets = args.length > 0 ? args.map((arg) => resolve(arg)) : [join(root, 'docs')];
  const missing = targets.filter((target) => !existsSync(target));
  if (missing.length > 0) {
    out.error(`check-samples: no such file or directory: ${missing.join(', ')}`);
    return 2;
  }
  let checked = 0;
  let failed = 0;
  for (const path of targets.flatMap((target) =>
    writtenMarkdownFiles(target, join(root, 'docs')),
  )) {
    const file = relative(process.cwd(), path) || path;
    const report = checkMarkdown(readFileSync(path, 'utf8'), file);
    checked += report.checked;
    failed += report.failures.length;
    for (const failure of report.failures) {
      out.log(located(failure.file, failure.line, failure.reason));
    }
  }
  out.log(`${checked} samples checked, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
