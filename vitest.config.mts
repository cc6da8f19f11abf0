import {defineConfig} from 'vitest/config';

export default defineConfig({
  // Components render in tests too (react-dom/server): JSX with React 17+'s runtime, whatever
  // tsconfig.json says for Docusaurus (`jsx: preserve`).
  oxc: {jsx: {runtime: 'automatic'}},
  test: {
    // Unit tests live next to their code in feature folders (src/features/<feature>/).
    include: [
      'tests/unit/**/*.test.{ts,tsx}',
      'src/features/**/*.test.{ts,tsx}',
      'src/data/**/*.test.ts',
      'tools/check-types/**/*.test.ts',
    ],
    environment: 'node',
    // Some tests run CLI scripts; leave room for a busy 2-core machine.
    testTimeout: 60_000,
  },
});
