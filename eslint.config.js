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
