// Lint for svc (`npm run lint`, part of `npm test`). Type-aware rules catch what review
// misses (a promise nobody awaits, a value import used only as a type), import-x finds
// import cycles, and no-restricted-imports holds the tier boundaries of docs/style.md §1:
// server/, cli/, shared/ and webview/ never import `vscode`; webview/ never imports Node.
// import-x/no-restricted-paths holds the direction between server folders (hostsBelow).
import { builtinModules } from 'node:module';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'only extension/ may import vscode (server/, cli/, shared/ and webview/ run outside the editor)' };
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
  name,
  message: 'webviews run in a browser: no Node built-ins (post a message to the extension instead)',
}));

// server/hosts is transport (an agent, git and files on another machine over SSH): harness/
// and lanes/ build on it, never the other way. What both need lives below both (util/,
// git/); what hosts needs of them is handed in by the caller (daemon/features.ts,
// server/hostHelperMain.ts). docs/decisions.md, Code health.
const hostsBelow = ['harness', 'lanes'].map((upper) => ({
  target: './server/hosts',
  from: `./server/${upper}`,
  message: `server/hosts sits below server/${upper}: move what both need to server/util or server/git, or have the caller hand it in`,
}));

// Refusals are made in one file per domain (docs/style.md §16): shared/refusals/<domain>.ts lists the
// reasons, server/<domain>/<domain>Refusals.ts (reap: reapErrors.ts) makes the messages.
// Anywhere else an error is made from a free reason string, the lint says where it belongs.
const REFUSAL_FILES = ['**/*Refusals.ts', 'server/reap/reapErrors.ts', 'shared/errors.ts', 'shared/client/daemonRefusal.ts'];
const refusalsElsewhere = "refusals are made in their domain's refusals file (server/<domain>/<domain>Refusals.ts, reasons in shared/refusals/): call a factory from there";

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
    files: ['server/hosts/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: hostsBelow }] },
  },
  {
    files: ['server/**/*.ts', 'cli/**/*.ts', 'shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['server/**/*.ts', 'cli/**/*.ts', 'shared/**/*.ts', 'extension/**/*.ts'],
    ignores: REFUSAL_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.name=/^(conflict|refused|usageError|notFound|refusalsOf)$/]', message: refusalsElsewhere },
        { selector: 'NewExpression[callee.name=/^(SvcError|DaemonRefusal)$/]', message: refusalsElsewhere },
      ],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode, ...nodeBuiltins] }] },
  },
);
