// ESLint 9 flat config (issue #18, "guards that catch drift"). Prettier owns layout; ESLint owns correctness.
// TypeScript files are linted with type information (typescript-eslint's recommendedTypeChecked), so promises that are
// neither awaited nor handled and `any` leaking in from untyped values are caught. The .mjs scripts and benches are
// outside tsconfig.json, so they get the rules that need no types.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Written by `npm run knowledge` and esbuild: fixed at their source, not here.
    ignores: ['**/dist/**', 'node_modules/**', 'mcp-server/src/core/knowledge/entries.generated.ts', 'test-artifacts/**'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      // Passing on a caught rejection reason (typed unknown) as it is is fine; inventing a non-Error one is not.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // tsc's noUnusedLocals/noUnusedParameters already fail the build; `_`-prefixed names are the documented opt-out.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.{ts,mjs,js}'],
    plugins: { '@stylistic': stylistic },
    rules: {
      eqeqeq: ['error', 'always'],
      // Prettier wraps code at 160; a string, template literal, URL or regex it cannot break may run past it.
      '@stylistic/max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    files: ['tests/**/*.ts'],
    rules: {
      // Test doubles implement async interfaces (Target, lab ports, query clients) with bodies that need no await.
      '@typescript-eslint/require-await': 'off',
      // vitest declares its asymmetric matchers (expect.stringMatching, expect.any, ...) as returning `any`, so every
      // toMatchObject({ message: expect.stringMatching(...) }) would need a cast. Member access, calls and returns on
      // `any` stay errors in tests too.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // The server speaks JSON-RPC on stdout and the CLI writes through cli/output.ts: a stray console call corrupts one
    // or bypasses the other.
    files: ['mcp-server/src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);
