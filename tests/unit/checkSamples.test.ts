import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {
  checkGraphql,
  checkJavaScript,
  checkJson,
  checkMarkdown,
  checkTypeScript,
  main,
} from '../../scripts/check-samples.mjs';

const fixtures = 'tests/unit/fixtures/check-samples';
const valid = `${fixtures}/valid.md`;
const invalid = `${fixtures}/invalid.md`;

function fence(lang: string, code: string): string {
  return ['# Page', '', `\`\`\`${lang}`, code, '```', ''].join('\n');
}

/** Runs `main` and returns its exit code and printed lines. */
function run(args: string[]): {code: number; lines: string[]} {
  const lines: string[] = [];
  const code = main(args, {log: (line) => lines.push(line), error: (line) => lines.push(line)});
  return {code, lines};
}

describe('check-samples', () => {
  it('accepts valid TypeScript', () => {
    expect(checkTypeScript('export const answer: number = 42;')).toBeNull();
  });

  it('rejects invalid TypeScript with the line of the error', () => {
    expect(checkTypeScript('const a = 1;\nconst b = ;\n')).toEqual({
      offset: 1,
      reason: 'TypeScript: Expression expected.',
    });
  });

  it('rejects TypeScript syntax in JavaScript', () => {
    const error = checkJavaScript('export class A {\n  constructor(private b: B) {}\n}');
    expect(error?.offset).toBe(1);
    expect(error?.reason).toMatch(/^JavaScript: /);
    expect(checkJavaScript('function f(a: string) {}')).not.toBeNull();
  });

  it('accepts Babel-style decorators and JSX in JavaScript', () => {
    const code = [
      '@Controller()',
      '@Dependencies(CatsService)',
      'export class A {',
      '  static x = 1;',
      '  @Get()',
      '  @Bind(Req())',
      '  find(req) { return <b>{req.url}</b>; }',
      '}',
    ].join('\n');
    expect(checkJavaScript(code)).toBeNull();
  });

  it('accepts a fragment that parses as class members, with or without leading imports', () => {
    expect(checkTypeScript('@Get()\nfindAll(): string {\n  return "x";\n}')).toBeNull();
    expect(
      checkTypeScript("import {Get} from '@nestjs/common';\n\n@Get()\nfindAll() {}"),
    ).toBeNull();
    expect(
      checkJavaScript('constructor(catsService) {\n  this.catsService = catsService;\n}'),
    ).toBeNull();
  });

  it('reports the error a fragment reading reaches, on the line it is on', () => {
    // As-is it fails on line 0; as class members it gets to the real typo on line 2.
    const error = checkTypeScript('findAll(): string {\n  const a = 1;\n  return a +;\n}');
    expect(error?.offset).toBe(2);
  });

  it('checks JSON and GraphQL (SDL and operations)', () => {
    expect(checkJson('{"a": [1, 2]}')).toBeNull();
    expect(checkJson('{\n  "a": 1,\n}')).toMatchObject({
      offset: 2,
      reason: expect.stringMatching(/^JSON: /),
    });
    expect(checkGraphql('type Cat {\n  name: String\n}')).toBeNull();
    expect(checkGraphql('query {\n  cats {\n    name\n  }\n}')).toBeNull();
    expect(checkGraphql('mutation {\n  create(name: ) { id }\n}')).toMatchObject({
      offset: 1,
      reason: expect.stringMatching(/^GraphQL: Syntax Error/),
    });
  });

  it('skips other languages', () => {
    expect(checkMarkdown(fence('bash', 'echo {'), 'p.md')).toEqual({checked: 0, failures: []});
    expect(checkMarkdown(fence('yaml', 'a: [b'), 'p.md')).toEqual({checked: 0, failures: []});
  });

  it('counts each half of a pair as one sample', () => {
    const code = '@@filename(a)\nconst a: number = 1;\n@@switch\nconst a = 1;';
    expect(checkMarkdown(fence('ts', code), 'p.md')).toEqual({checked: 2, failures: []});
  });

  it('fails on malformed markers, like the remark plugin', () => {
    const code = 'const a = 1;\n@@switch\nconst a = 1;\n@@switch\nconst a = 1;';
    expect(checkMarkdown(fence('ts', code), 'p.md').failures).toEqual([
      {file: 'p.md', line: 7, reason: '@@switch appears twice: a code block has at most one'},
    ]);
  });

  it('reports a page that is not valid MDX and still checks its fences', () => {
    const page = '# Page\n\n<!-- an HTML comment -->\n\n```json\n{,}\n```\n';
    const {failures} = checkMarkdown(page, 'p.md');
    expect(failures.map((failure) => failure.line)).toEqual([3, 6]);
    expect(failures[0].reason).toMatch(/^not valid MDX: /);
  });

  it('passes the valid fixture (front matter kept out, line numbers kept)', () => {
    expect(checkMarkdown(readFileSync(valid, 'utf8'), valid)).toEqual({checked: 8, failures: []});
  });

  it('prints file:line: reason for each failure and the summary', () => {
    const {code, lines} = run([invalid]);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `${invalid}:6: TypeScript: Expression or comma expected.`,
      `${invalid}:16: JavaScript: Unexpected reserved word 'private'.`,
      expect.stringMatching(new RegExp(`^${invalid}:23: JSON: `)),
      `${invalid}:28: GraphQL: Syntax Error: Expected Name, found <EOF>.`,
      `${invalid}:33: unknown marker "@@oops": only @@filename(name) and @@switch exist`,
      '6 samples checked, 5 failed',
    ]);
  });

  it('exits 0 when everything parses', () => {
    expect(run([valid])).toEqual({code: 0, lines: ['8 samples checked, 0 failed']});
  });

  it('works as a command: exit code 1 on failure, 0 on success, 2 on a missing file', () => {
    const cli = (args: string[]) =>
      spawnSync(process.execPath, ['scripts/check-samples.mjs', ...args], {encoding: 'utf8'});
    const failing = cli([fixtures]);
    expect(failing.status).toBe(1);
    expect(failing.stdout.trim().split('\n').at(-1)).toBe('14 samples checked, 5 failed');
    const passing = cli([valid]);
    expect(passing.status).toBe(0);
    expect(passing.stdout).toBe('8 samples checked, 0 failed\n');
    const missing = cli(['no/such/page.md']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no such file or directory/);
  });
});
