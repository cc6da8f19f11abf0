// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import docusaurus from '@docusaurus/eslint-plugin';
import globals from 'globals';
import {builtinModules} from 'node:module';

/**
 * The browser/node boundary (ARCHITECTURE.md): what each kind of file in src/ may not import.
 * Node's built-in modules, by both spellings (`fs`, `node:fs`).
 */
const nodeBuiltins = builtinModules.flatMap((name) => [name, `node:${name}`]);
const nodeBuiltinsRule = {
  name: '',
  message:
    "browser code runs in the browser: no Node built-ins (move this to the feature's node/).",
};
/** Build-time code of a feature: its node/ folder and its Docusaurus plugin. */
const nodeCode = {
  // Types are erased from the bundles: a type may come from either side.
  allowTypeImports: true,
  group: ['**/node/*', '**/node', '**/plugin', '**/plugin.ts'],
  message:
    "browser code must not import a feature's node/ folder or plugin (build-time Node code).",
};
/** Browser code of a feature, and what only the browser bundle resolves. */
const browserCode = {
  allowTypeImports: true,
  group: [
    '**/client/*',
    '**/client',
    'react',
    'react-dom',
    'react-dom/*',
    '@theme/*',
    '@theme-original/*',
  ],
  message: "build-time code must not import browser code (a feature's client/, React, @theme/).",
};

export default tseslint.config(
  {
    ignores: [
      'build/',
      '.docusaurus/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'tests/unit/fixtures/',
      'src/features/**/fixtures/',
      'tools/behaviour/.run/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {...globals.browser, ...globals.node},
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: {
      'react-hooks': reactHooks,
      '@docusaurus': docusaurus,
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@docusaurus/no-html-links': 'error',
      '@docusaurus/no-untranslated-text': [
        'error',
        {ignoredStrings: ['·', '—', '×', '©', '/', '(', ')', ':']},
      ],
      '@docusaurus/prefer-docusaurus-heading': 'error',
      '@docusaurus/string-literal-i18n-messages': 'error',
      // Leaving props out with a rest pattern (`const {a, ...rest} = props`) is not a stray variable.
      '@typescript-eslint/no-unused-vars': ['error', {ignoreRestSiblings: true}],
    },
  },
  {
    // Browser code: features' client/ folders, the theme's entry points, the pages. Tests next
    // to it run in Node and may read files.
    files: [
      'src/features/*/client/**/*.{ts,tsx,js,mjs}',
      'src/theme/**/*.{ts,tsx}',
      'src/pages/**/*.{ts,tsx}',
    ],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({...nodeBuiltinsRule, name})),
          patterns: [nodeCode],
        },
      ],
    },
  },
  {
    // Build-time code: features' node/ folders and plugins.
    files: ['src/features/*/node/**/*.{ts,tsx,js,mjs,cjs}', 'src/features/*/plugin.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {'@typescript-eslint/no-restricted-imports': ['error', {patterns: [browserCode]}]},
  },
  {
    // A feature's top-level files are pure logic that both sides import: neither side's modules.
    files: ['src/features/*/*.{ts,tsx,js,mjs}', 'src/data/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'src/features/*/plugin.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: "a feature's top-level files are used by both sides: no Node built-ins.",
          })),
          patterns: [nodeCode, browserCode],
        },
      ],
    },
  },
  {
    // Tests render components with fixed text of their own: nothing there is shown to readers.
    files: ['src/**/*.test.{ts,tsx}'],
    rules: {
      '@docusaurus/no-untranslated-text': 'off',
    },
  },
  {
    // The behaviour suite drives Nest applications whose objects are untyped at the test's edge
    // (an app's server, a message payload): `any` is allowed there, and so are unused names that
    // a page's sample destructures.
    files: ['tools/behaviour/**/*.{ts,mts}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_'},
      ],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
