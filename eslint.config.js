import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'src/store/migrations/', '.aion/', 'test/.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: ['src/main.ts', 'test/bench/**', 'src/cli/**'],
    rules: { 'no-console': 'off' },
  },
  // The console: the Rules of React (hooks, and what the React Compiler's rules check).
  { files: ['web/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  // The console speaks to the server only through the wire: what it may import of the server's code is src/wire.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+src/(?!wire/)', message: 'The console imports server types only from src/wire: move or re-export the type there.' }] },
      ],
    },
  },
);
