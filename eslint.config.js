import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** What no renderer file imports (a later block for some renderer folders repeats them: flat config replaces a rule's options). */
const RENDERER_IMPORT_PATTERNS = [
  {
    group: ['node:*', 'fs', 'path', 'child_process', 'electron'],
    message: 'The renderer has no Node or Electron.',
  },
  {
    group: ['**/main/**', '**/simulator/**', '**/cli/**', '**/shared/node/**'],
    message: 'The renderer talks to main only through the bridge.',
  },
];

/** The composition root: it opens the core's parts and builds the features (see README, Architecture). */
const ROOT_MODULES = ['**/app/core-parts*', '**/app/compose-core*', '**/app/app-core*'];
const ROOT_MESSAGE =
  "Only the composition root (src/main/core/app) holds the core's parts together; use a feature.";
const JOURNAL_MODULES = ['**/journal/*', '!**/journal/vocabulary.js', '!**/journal/pagination.js'];
const JOURNAL_MESSAGE = 'Adapters use features (src/main/core/features), never the journal.';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/.work/**',
      'native/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The renderer is a browser page: no Node, no Electron, no main-process code, no secrets.
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [...RENDERER_IMPORT_PATTERNS],
        },
      ],
      // The bridge's schemas run in main: the renderer takes their types, and values from names.ts.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'zod',
                'zod/*',
                '**/shared/bridge/contract',
                '**/shared/bridge/domains/*',
                '**/shared/api/*',
                '!**/shared/api/contract-vocabulary', // plain checks, no schema library
              ],
              allowTypeImports: true,
              message:
                'Schemas stay out of the renderer: import types only, and names from shared/bridge/names.',
            },
          ],
        },
      ],
    },
  },
  {
    // Components read the store and call its actions; only the store's slices call the bridge.
    files: ['src/renderer/src/{app,screens,components}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...RENDERER_IMPORT_PATTERNS,
            {
              // the renderer's own bridge module (src/renderer/src/bridge), not shared/bridge's types
              regex: '^(\\.\\./)+bridge(/.*)?$',
              message: 'Bridge calls are store actions (src/renderer/src/store): call the action instead.',
            },
          ],
        },
      ],
    },
  },
  {
    // Layers import only downward: shared never imports main, renderer, simulator or cli.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/simulator/**', '**/cli/**', 'electron'],
              message: 'shared/ is the bottom layer.',
            },
          ],
        },
      ],
    },
  },
  {
    // Inside the core, only the composition root (core/app) holds the opened parts together:
    // nothing below it imports it.
    files: ['src/main/core/**/*.ts'],
    ignores: ['src/main/core/app/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ROOT_MODULES, message: ROOT_MESSAGE }] },
      ],
    },
  },
  {
    // Capability folders never import the composition roots (app/, platform/), the bridge, the hosts or the CLI.
    files: ['src/main/core/*/**/*.ts'],
    ignores: ['src/main/core/{app,bridge,platform}/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/*', '**/bridge/**', '!**/shared/bridge/**', '**/cli/**', '**/host/**'],
              message:
                'A feature is built by the composition root (core/app) and never imports it, the bridge, a host or the CLI.',
            },
          ],
        },
      ],
    },
  },
  {
    // Adapters map onto features: bridge handlers and CLI commands/actions never reach the journal
    // (its import-free vocabularies excepted: `commands/` load them at every start).
    files: ['src/cli/actions/**/*.ts', 'src/cli/commands/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: JOURNAL_MODULES, message: JOURNAL_MESSAGE }] },
      ],
    },
  },
  {
    // Bridge handlers are built by the root: they import neither it nor the journal.
    files: ['src/main/core/bridge/handlers/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: JOURNAL_MODULES, message: JOURNAL_MESSAGE },
            { group: ROOT_MODULES, message: ROOT_MESSAGE },
          ],
        },
      ],
    },
  },
  {
    // The core is plain Node: Electron lives only in the thin shell.
    files: ['src/main/core/**/*.ts', 'src/main/host/**/*.ts', 'src/simulator/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', 'electron-updater', '**/main/shell/**', '**/renderer/**'],
              message: 'Electron imports belong to src/main/shell only.',
            },
          ],
        },
      ],
    },
  },
);
