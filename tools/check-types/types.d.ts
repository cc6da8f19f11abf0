/** The shapes shared by the modules of check-types. */

/**
 * A TypeScript or JavaScript half of a marked fence. `line` is the page line (1-based) of the
 * half's first code line.
 */
export interface Sample {
  page: string;
  filename: string | null;
  lang: 'ts' | 'js';
  code: string;
  line: number;
}

/**
 * A sample placed in the virtual project. `code` is what the compiler sees (a fragment is
 * wrapped); a compiler line `l` (0-based) is page line
 * `sample.line + l - (fragmentAt !== null && l > fragmentAt ? 1 : 0)`.
 */
export interface ProjectFile {
  sample: Sample;
  index: number;
  key: string;
  path: string;
  code: string;
  fragmentAt: number | null;
}

export interface Project {
  root: string;
  files: ProjectFile[];
  stubs: Map<string, string>;
  resolve: (specifier: string, containingFile: string) => string | null;
}

/**
 * What a file needs from a module: the names it imports, whether it takes the default export,
 * and the names it uses in an `implements` clause.
 */
export interface Needs {
  names: Set<string>;
  default: boolean;
  implemented: Set<string>;
}

/** A known failure of tools/samples/allow-list.json. */
export interface AllowEntry {
  page: string;
  filename: string;
  reason: string;
}

/** The compiler's verdict on one sample: errors on page lines. */
export interface SampleResult {
  sample: Sample;
  file: ProjectFile;
  errors: {line: number; message: string}[];
}
