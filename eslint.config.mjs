// Lint for svc (`npm run lint`, part of `npm test`). Type-aware rules catch what review
// misses (a promise nobody awaits, a value import used only as a type), import-x finds
// import cycles, and no-restricted-imports holds the tier boundaries of STYLE §1:
// server/, shared/ and webview/ never import `vscode`; webview/ never imports Node.
import { builtinModules } from 'node:module';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'only extension/ may import vscode (server/, shared/ and webview/ run outside the editor)' };
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
  name,
  message: 'webviews run in a browser: no Node built-ins (post a message to the extension instead)',
}));

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'out/**', '.scratch/**', '.code-server/**', '.vscode-test/**', '.demo/**', '.adapters/**', '.native/**', '.node-versions/**'],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    settings: {
      // Cycle detection parses every imported file: with the TypeScript parser.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // The rules the code's own disable comments name: each such comment marks a reviewed exception.
      'no-control-regex': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-require-imports': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
  {
    files: ['server/**/*.ts', 'shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode, ...nodeBuiltins] }] },
  },
);
