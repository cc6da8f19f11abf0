// @ts-check
/** Where the bench finds the site, its packages, its budgets and where it writes results. */
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const benchDir = join(root, 'tools', 'bench');
export const resultsDir = join(root, 'bench', 'results');
export const budgetsPath = join(root, 'bench', 'budgets.json');
