// The house rules a linter can check: ESLint's and typescript-eslint's recommended sets everywhere, the
// React hooks rules in the renderer, and the type-aware rules that catch a lost or misused promise (they
// need the TypeScript program, which triples the run's CPU: about 95 s against 31 s on a 2-core machine).
// `npm run lint` runs them all and is in `npm test`; `npm run lint:fast` leaves the type-aware ones out,
// for a quick look while editing. Each rule turned off says why.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'release/', 'resources/', 'e2e/artifacts/', '.sandbox-data/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      // A variable a closure reads before its one assignment (electron/main.ts's window id) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Off: payout files and addresses are checked for control characters on purpose.
      'no-control-regex': 'off',
      // `_name` marks a parameter a signature requires but the body does not use (handlers' `_req`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  process.env.LINT_TYPES === '1'
    ? {
        files: ['**/*.{ts,tsx}'],
        languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
        rules: {
          '@typescript-eslint/no-floating-promises': 'error',
          '@typescript-eslint/no-misused-promises': 'error',
          '@typescript-eslint/await-thenable': 'error',
        },
      }
    : {},
  {
    files: ['renderer/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      // Off: these judge code for the React Compiler, which the desk does not use; rules-of-hooks and exhaustive-deps stay.
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/refs': 'off',
      'react-hooks/purity': 'off',
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    // Only electron/core/client/ speaks HTTP to the exchange: .dependency-cruiser.cjs (only-client-speaks-http)
    // holds the imports of node:http and undici, and this the globals, which no import shows.
    files: ['electron/core/**/*.ts'],
    ignores: ['electron/core/client/**', 'electron/core/**/*.test.ts', 'electron/core/**/testkit/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({
          name,
          message: 'Only electron/core/client/ speaks HTTP to the exchange: read through a client (ApiClient) or a read of client/.',
        })),
      ],
    },
  },
  {
    // The decoder wipes its bit accumulator after use: key material must not linger, though nothing reads it again.
    files: ['electron/core/vault/crypto.ts'],
    rules: { 'no-useless-assignment': 'off' },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: { globals: globals.node },
  },
);
