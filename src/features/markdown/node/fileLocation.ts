/**
 * Where a remark plugin's error points: the page file relative to the working directory, and
 * the line, as `file:line` (the project's one format: ../location.mjs).
 */
import {relative} from 'node:path';
import {fileLine} from '../location.mjs';

/** The parts of a VFile the plugins read. */
export interface FileLike {
  readonly path?: string;
  readonly cwd?: string;
}

/** `file:line` for error messages: the path relative to the file's cwd. */
export function location(file: FileLike, line: number | undefined): string {
  const cwd = file.cwd ?? process.cwd();
  const path = file.path ? relative(cwd, file.path) || file.path : '<input>';
  return fileLine(path, line);
}
