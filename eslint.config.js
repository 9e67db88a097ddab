// Lint, plus the layering rules of docs/architecture: arrows go one way and this file enforces them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

const noUpward = (patterns) => ['error', { patterns }];

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'test-results/**', 'docs/openapi.json', 'tmp/**', '.scratch*/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Text from Records and imports reaches these patterns on the server's event loop: a pattern that
    // backtracks super-linearly on some input lets one Record or one mail freeze every request.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        {
          group: ['**/server/**', '**/renderer/**', '**/electron/**'],
          message: 'The engine imports nothing of ours above it.',
        },
        {
          group: ['hono', 'hono/*', '@hono/*', 'react', 'react-dom', 'electron'],
          message: 'The engine is a library: no HTTP framework, React or Electron.',
        },
        {
          // By default the tokenizer throws on special-token strings, which Record text may hold.
          group: ['gpt-tokenizer', 'gpt-tokenizer/*'],
          message: 'Count tokens with engine/shared/count-tokens.ts: it never throws on user text.',
        },
      ]),
    },
  },
  {
    files: ['engine/shared/count-tokens.ts', 'engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        {
          group: ['**/server/**', '**/renderer/**', '**/electron/**'],
          message: 'The engine imports nothing of ours above it.',
        },
        {
          group: ['hono', 'hono/*', '@hono/*', 'react', 'react-dom', 'electron'],
          message: 'The engine is a library: no HTTP framework, React or Electron.',
        },
      ]),
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        {
          group: ['**/renderer/**', '**/electron/**'],
          message: 'The server does not import the UI or the shell.',
        },
        { group: ['react', 'react-dom', 'electron'], message: 'The server has no React or Electron.' },
      ]),
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': noUpward([
        {
          // gitignore semantics: a file cannot be re-included once its parent folder is excluded, so
          // exclude engine's children (not engine/**) and re-include the two allowed folders.
          group: ['**/engine/*', '!**/engine/contract', '!**/engine/errors'],
          message: 'The renderer talks to the engine over HTTP only; it may import contract types.',
        },
        {
          group: ['**/server/*', '!**/server/client'],
          message: 'The renderer may use the typed client only.',
        },
        { group: ['**/electron/**', 'node:*', 'electron'], message: 'The renderer has no Node or Electron.' },
      ]),
    },
  },
  {
    // The Vite config runs in Node at build time; it is not part of the renderer bundle.
    files: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['electron/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        { group: ['**/renderer/**', 'react'], message: 'The shell does not import the UI.' },
      ]),
    },
  },
  prettier,
);
