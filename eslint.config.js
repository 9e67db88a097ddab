// Lint, plus the layering rules of docs/architecture.md: arrows go one way and this file enforces them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

const noUpward = (patterns) => ['error', { patterns }];

// The engine's public surface: its entry, the contract, the error codes and the Engine types. Everything
// else of the engine is its own business (gitignore semantics: exclude engine's children, re-include these).
const engineEntryOnly = {
  group: [
    '**/engine/*',
    '!**/engine/index.ts',
    '!**/engine/contract',
    '!**/engine/errors',
    '!**/engine/types.ts',
  ],
  message:
    'Outside the engine, import engine/index.ts, engine/contract/, engine/errors/ or engine/types.ts only.',
};

const engineUpward = [
  {
    group: ['**/server/**', '**/renderer/**', '**/electron/**'],
    message: 'The engine imports nothing of ours above it.',
  },
  {
    group: ['hono', 'hono/*', '@hono/*', 'react', 'react-dom', 'electron'],
    message: 'The engine is a library: no HTTP framework, React or Electron.',
  },
];

// SQLite is one storage adapter: its driver and extension belong to engine/adapters/sqlite/, so a
// second backend is a folder beside it and nothing else changes.
const sqliteDriver = {
  group: ['better-sqlite3-multiple-ciphers', 'sqlite-vec'],
  message: 'Only engine/adapters/sqlite/ uses the SQLite driver and sqlite-vec.',
};

// PostgreSQL is another: its driver (and PGlite, the embedded PostgreSQL tests run on) belong to
// engine/adapters/postgres/.
const pgDriver = {
  group: ['pg', 'pg/*', 'pg-*', '@electric-sql/*'],
  message: 'Only engine/adapters/postgres/ uses the PostgreSQL driver and PGlite.',
};

// The Store (engine/adapters/sqlite/store.ts) is the SQLite adapter's own: outside
// engine/adapters/sqlite/ a module reaches SQLite only through a port the adapter implements. Two
// rules: no import of store.ts (`import type` included), so no module outside can name the type; and
// no call of a Store's methods (run/get/all/tx/unit/exclusive/nextSeq/...) on a receiver named `store`
// or `*.store`, the name every caller gave it (lint has no types; the import ban covers the rest).
const sqliteStore = {
  group: ['**/adapters/sqlite/store.ts', '**/adapters/sqlite/store'],
  message:
    'Only engine/adapters/sqlite/ uses the Store: reach SQLite through a port (engine/ports/) the adapter implements.',
};
const storeMethods =
  '/^(run|get|all|tx|unit|exclusive|nextSeq|flushBatches|emptyLog|checkpoint|prepare|exec|close)$/';
const storeCalls = {
  selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=${storeMethods}]:matches([callee.object.name='store'], [callee.object.property.name='store'])`,
  message: sqliteStore.message,
};

// Store's connection (`store.db`) is the driver itself: SQL through it bypasses Store's statements and
// transactions, and ties the module to SQLite.
// By default the tokenizer throws on special-token strings, which Record text may hold.
const rawTokenizer = {
  group: ['gpt-tokenizer', 'gpt-tokenizer/*'],
  message: 'Count tokens with engine/core/shared/count-tokens.ts: it never throws on user text.',
};

// The core is the rules every backend shares: it reaches storage only through the ports, and runs on
// any JS runtime (Web APIs, no node: modules). Paths are relative to engine/core/<area>/.
const coreOnly = {
  regex: '^(?:\\.\\./\\.\\./(?!ports/|contract/|errors/)|node:)',
  message:
    'engine/core/ imports only core, engine/ports/, engine/contract/, engine/errors/ and no node: module.',
};

// Adapters are alternatives: one never imports another (paths relative to engine/adapters/<name>/).
const otherAdapter = {
  regex: '^\\.\\./(?!\\.\\./)',
  message: 'An adapter does not import another adapter.',
};

const pastStore = {
  selector: "MemberExpression[property.name='db'][object.type!='ThisExpression']",
  message: 'Use Store (run/get/all/tx), not its driver connection, outside engine/adapters/sqlite/.',
};

// V8 compiles matchAll's copy of its pattern again at every call (docs/architecture.md, item 32).
const copiedPattern = {
  selector: "CallExpression[callee.property.name='matchAll']",
  message: 'Find every match with engine/contract/matches-of.ts: matchAll compiles a copy of its pattern.',
};

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
  // The engine's layers (docs/architecture.md). no-restricted-imports is one rule: a later block
  // replaces an earlier one's patterns for the files both match, so each block lists all it needs.
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([...engineUpward, sqliteDriver, sqliteStore, pgDriver, rawTokenizer]),
      'no-restricted-syntax': ['error', pastStore, storeCalls, copiedPattern],
    },
  },
  {
    files: ['engine/adapters/sqlite/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([...engineUpward, pgDriver, rawTokenizer, otherAdapter]),
      'no-restricted-syntax': ['error', copiedPattern],
    },
  },
  {
    files: ['engine/adapters/postgres/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([...engineUpward, sqliteDriver, rawTokenizer, otherAdapter]),
      'no-restricted-syntax': ['error', storeCalls, copiedPattern],
    },
  },
  {
    files: ['engine/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        ...engineUpward,
        sqliteDriver,
        sqliteStore,
        pgDriver,
        rawTokenizer,
        coreOnly,
      ]),
    },
  },
  {
    // Tests may drive the driver and the internals they test.
    files: ['engine/**/*.test.ts', 'engine/**/testing/**'],
    rules: { 'no-restricted-imports': noUpward(engineUpward), 'no-restricted-syntax': 'off' },
  },
  {
    // Ports are interfaces over plain data: they depend on nothing but each other and the contract's types.
    files: ['engine/ports/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        {
          regex: '^(?!\\./|\\.\\./contract/)',
          message: 'engine/ports/ imports only ports and engine/contract/.',
        },
      ]),
    },
  },
  {
    // A migration does the same to a store whenever it meets one: it may not import live rules, which
    // change (a later fix reaches old data as a derivation upgrade, as 015 does). Ids are a format.
    files: ['engine/adapters/sqlite/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        ...engineUpward,
        rawTokenizer,
        {
          regex: '^\\.\\./\\.\\./(?!\\.\\./ids\\.ts$)',
          message: 'A migration imports nothing outside engine/adapters/sqlite/ (ids.ts aside).',
        },
      ]),
    },
  },
  {
    // The same for PostgreSQL's migrations, plain SQL text: they import nothing at all.
    files: ['engine/adapters/postgres/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        {
          regex: '^(?!\\./)',
          message: 'A PostgreSQL migration is SQL text: it imports nothing outside migrations/.',
        },
      ]),
    },
  },
  {
    files: ['engine/core/shared/count-tokens.ts'],
    rules: {
      'no-restricted-imports': noUpward([...engineUpward, sqliteDriver, sqliteStore, pgDriver, coreOnly]),
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
        engineEntryOnly,
        sqliteDriver,
        pgDriver,
      ]),
    },
  },
  {
    // no-restricted-imports does not see import(): the same surface for the engine loaded on demand.
    files: ['server/**/*.ts', 'electron/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'ImportExpression[source.value=/engine\\/(?!index\\.ts|contract\\/|errors\\/|types\\.ts)/]',
          message: engineEntryOnly.message,
        },
        storeCalls,
        copiedPattern,
      ],
    },
  },
  {
    // The typed client also runs in the renderer's bundle, where the engine's entry (Node modules) cannot
    // go; error-message.ts is a browser-safe leaf.
    files: ['server/client/**/*.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        {
          group: ['**/renderer/**', '**/electron/**', 'react', 'react-dom', 'electron'],
          message: 'No UI or shell.',
        },
        {
          ...engineEntryOnly,
          group: [
            ...engineEntryOnly.group,
            '!**/engine/core',
            '**/engine/core/*',
            '!**/engine/core/shared',
            '**/engine/core/shared/*',
            '!**/engine/core/shared/error-message.ts',
          ],
        },
      ]),
    },
  },
  {
    // Tests drive internals on purpose.
    files: ['server/**/*.test.ts', 'server/**/testing/**'],
    rules: {
      'no-restricted-imports': noUpward([
        {
          group: ['**/renderer/**', '**/electron/**', 'react', 'react-dom', 'electron'],
          message: 'No UI or shell.',
        },
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
      'no-restricted-syntax': ['error', copiedPattern],
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
        engineEntryOnly,
        sqliteDriver,
        pgDriver,
      ]),
    },
  },
  {
    files: ['electron/**/*.test.ts'],
    rules: {
      'no-restricted-imports': noUpward([
        { group: ['**/renderer/**', 'react'], message: 'The shell does not import the UI.' },
      ]),
    },
  },
  prettier,
);
