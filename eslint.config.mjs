// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import docusaurus from '@docusaurus/eslint-plugin';
import globals from 'globals';

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
