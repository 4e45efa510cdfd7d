// Lint for the whole repository. The local feature-boundaries rule makes "a feature never
// imports another feature" a rule instead of a habit.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { featureBoundaries } from './scripts/eslint/feature-boundaries.js';
import { layers } from './scripts/eslint/layers.js';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/server/drizzle/**', 'coverage/**'] },
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
    // No import cycles anywhere: a cycle means two files are one unit in two halves.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The directions of the layers (README, "Layers"). Tests are left out: a test of a lower layer
    // may drive it through the whole application.
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    plugins: { layers: { rules: { directions: layers } } },
    rules: {
      'layers/directions': [
        'error',
        {
          layers: [
            { name: 'server db/, ingest/, plugins/, realtime/ or lib/', dirs: ['apps/server/src/db', 'apps/server/src/ingest', 'apps/server/src/plugins', 'apps/server/src/realtime', 'apps/server/src/lib'], mayNotImport: ['apps/server/src/modules'] },
            { name: 'web components/, lib/ or api/', dirs: ['apps/web/src/components', 'apps/web/src/lib', 'apps/web/src/api'], mayNotImport: ['apps/web/src/features', 'apps/web/src/app'] },
            { name: 'web features/', dirs: ['apps/web/src/features'], mayNotImport: ['apps/web/src/app'] },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, iotc: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'iotc/feature-boundaries': 'error',
    },
  },
);
