// Lint for svc (`npm run lint`, part of `npm test`). Type-aware rules catch what review
// misses (a promise nobody awaits, a value import used only as a type), import-x finds
// import cycles, and no-restricted-imports holds the tier boundaries of docs/style.md §1:
// server/, cli/, shared/ and webview/ never import `vscode`; webview/ never imports Node.
// import-x/no-restricted-paths holds the zones between folders (ZONES: the command line,
// the extension, the direction between server folders). test/unit/lintZones.unit.test.ts
// proves each boundary fails on a wrong import.
import { builtinModules } from 'node:module';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const noVscode = {
  name: 'vscode',
  message: 'only extension/ may import vscode (server/, cli/, shared/ and webview/ run outside the editor)',
};
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
  name,
  message: 'webviews run in a browser: no Node built-ins (post a message to the extension instead)',
}));

// server/hosts is transport (an agent, git and files on another machine over SSH): harness/
// and lanes/ build on it, never the other way. What both need lives below both (util/,
// git/); what hosts needs of them is handed in by the caller (daemon/features.ts,
// server/hostHelperMain.ts). docs/decisions/code.md, "Code health".
const hostsBelow = ['harness', 'lanes'].map((upper) => ({
  target: './server/hosts',
  from: `./server/${upper}`,
  message: `server/hosts sits below server/${upper}: move what both need to server/util or server/git, or have the caller hand it in`,
}));

// Which folder may import which (import-x/no-restricted-paths judges the resolved file, so
// a relative path that climbs around a boundary is caught too; type-only imports count).
const ZONES = [
  // cli/ is a separate program, bundled alone and started for every `svc` call: it reaches
  // the daemon over its socket, so it imports only shared/ and its own folder (and
  // packages, which the bundle test keeps out of dist/svc.js).
  {
    target: './cli',
    from: '.',
    except: ['./cli', './shared', './node_modules'],
    message:
      'cli/ is a separate program that imports only shared/ and cli/: move what both need into shared/, or ask the daemon over the socket',
  },
  // The extension is a client of the daemon like the command line: the protocol and the
  // clients it shares with them are in shared/.
  {
    target: './extension',
    from: ['./server', './cli'],
    message:
      'extension/ is a client of the daemon: it never imports server/ or cli/; move what both need into shared/, or ask the daemon over the socket',
  },
  // reap/ stops a lane's conversations, so conversations/ sits below it: what both need
  // (what a process runs: util/processGroup.ts) lives below both.
  {
    target: './server/conversations',
    from: './server/reap',
    message:
      'server/conversations sits below server/reap: move what both need to server/util, or have the caller hand it in',
  },
  // authority/ judges every request before a feature runs it, so it sits below them: what
  // it reads of a conversation (its review seat, its lineage) lives in conversations/.
  {
    target: './server/authority',
    from: ['./server/review', './server/lanes', './server/issues', './server/codehost'],
    message:
      'server/authority sits below the features it guards: read what it needs from server/conversations, or have the caller hand it in',
  },
  ...hostsBelow,
];

// Refusals are made in one file per domain (docs/style.md §16): shared/refusals/<domain>.ts lists the
// reasons, server/<domain>/<domain>Refusals.ts (reap: reapErrors.ts) makes the messages.
// Anywhere else an error is made from a free reason string, the lint says where it belongs.
const REFUSAL_FILES = [
  '**/*Refusals.ts',
  'server/reap/reapErrors.ts',
  'shared/errors.ts',
  'shared/client/daemonRefusal.ts',
];
/** Where a lane lives is asked of its placement (server/lanes/placement.ts, laneSite.ts, laneWhere.ts), never tested in place. */
const PLACEMENT_FILES = [
  'server/lanes/placement.ts',
  'server/lanes/hostPlacement.ts',
  'server/lanes/laneSite.ts',
  'server/lanes/laneWhere.ts',
  'server/lanes/reapOnHost.ts',
];
const onHostElsewhere =
  "a lane's host is asked of its placement (server/lanes/laneSite.ts for a lane, laneWhere.ts for a row), never tested here";
const HOST_TESTS = [
  "IfStatement > MemberExpression.test[property.name='host']",
  "ConditionalExpression > MemberExpression.test[property.name='host']",
  "LogicalExpression[operator=/^(&&|\\|\\|)$/] > MemberExpression[property.name='host']",
  "UnaryExpression[operator='!'] > MemberExpression[property.name='host']",
  "BinaryExpression[operator=/^[!=]==?$/] > MemberExpression[property.name='host']",
].map((selector) => ({ selector, message: onHostElsewhere }));

const refusalsElsewhere =
  "refusals are made in their domain's refusals file (server/<domain>/<domain>Refusals.ts, reasons in shared/refusals/): call a factory from there";

/** Refusals are made only by their domain's factories (refusalsElsewhere). */
const REFUSALS_IN_PLACE = [
  {
    selector: 'CallExpression[callee.name=/^(conflict|refused|usageError|notFound|refusalsOf)$/]',
    message: refusalsElsewhere,
  },
  { selector: 'NewExpression[callee.name=/^(SvcError|DaemonRefusal)$/]', message: refusalsElsewhere },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      '.scratch/**',
      '.code-server/**',
      '.vscode-test/**',
      '.demo/**',
      '.adapters/**',
      '.native/**',
      '.node-versions/**',
    ],
  },
  {
    files: ['**/*.ts'],
    // typescript-eslint's recommended type-checked rules, then the project's own on top.
    extends: [tseslint.configs.recommendedTypeChecked],
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
      // Off: an async function whose body needs no await still promises. Interface methods
      // (a code host's, a command's `run`) keep the contract their callers await, and a
      // throw inside one stays a rejection; dropping `async` would change both.
      '@typescript-eslint/require-await': 'off',
      // A `let` that a closure reads before its one assignment (the daemon's stop, which
      // may run before the timers it clears are set) stays a `let`: as a const declared at
      // the assignment, the closure would meet it in its temporal dead zone.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // TypeScript's noUnusedLocals/noUnusedParameters already check, and both treat a
      // leading underscore as unused on purpose (a parameter kept for its type, a field
      // taken out of a rest): the lint agrees with them.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // A caught value passed on unchanged is not a new non-Error rejection.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports' },
      ],
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
    // Tests and benches read what the real daemon, the svc command and the GitHub and
    // model fakes answer: JSON, untyped until the assertion that checks its shape. There
    // the no-unsafe rules would ask for a type assertion before every such assertion; the
    // product code (server/, cli/, shared/, extension/, webview/) keeps all of them.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: ZONES }] },
  },
  {
    files: ['server/**/*.ts', 'cli/**/*.ts', 'shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['server/**/*.ts', 'cli/**/*.ts', 'shared/**/*.ts', 'extension/**/*.ts'],
    ignores: REFUSAL_FILES,
    rules: {
      'no-restricted-syntax': ['error', ...REFUSALS_IN_PLACE],
    },
  },
  {
    // The lanes' code after launch: local and remote differ only behind the placement seam.
    // (no-restricted-syntax replaces the block above for these files, so its selectors come too.)
    files: ['server/lanes/**/*.ts', 'server/reap/**/*.ts', 'server/runRecord/**/*.ts'],
    ignores: [...REFUSAL_FILES, ...PLACEMENT_FILES],
    rules: {
      'no-restricted-syntax': ['error', ...REFUSALS_IN_PLACE, ...HOST_TESTS],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode, ...nodeBuiltins] }] },
  },
);
