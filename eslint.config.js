import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/web-dist/**',
      '.service-data/**',
      'coverage/**',
      '**/.prof-tmp/**',
      '**/.test-build-*/**',
      'packages/web/src/api/schema.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'Buffer',
          'URL',
          'URLSearchParams',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'fetch',
          'crypto',
          'performance',
          'AbortController',
          'TextEncoder',
          'TextDecoder',
        ].map((name) => [name, 'readonly']),
      ),
    },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read configuration through config.ts only.' },
      ],
    },
  },
  {
    files: ['packages/server/src/config.ts', 'packages/server/test/**', 'packages/test-support/**', 'bench/**', 'e2e/**', '**/*.config.*', '.ci/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
