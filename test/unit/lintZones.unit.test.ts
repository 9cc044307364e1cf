// The folder boundaries are lint rules (eslint.config.mjs, docs/style.md §1): this proves each
// one fails on a wrong import and lets a right one through, by running ESLint's Node API on
// an in-memory file placed in the zone, with the repository's own config. Before, the
// command line's purity was checked only after a build, by reading its bundle's source map.
//
// The probe files exist only in memory, so TypeScript's project service cannot place them
// in a program: the type-aware rules are switched off for these runs (typescript-eslint's
// disableTypeChecked), and so is the cycle search (it would walk the whole import graph for
// nothing). The boundary rules need no types; everything else of the config applies.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { REPO } from '../helpers/scratch';

interface Probe {
  /** Where the in-memory file sits, relative to the repository. */
  file: string;
  code: string;
  /** The exact messages ESLint must report ([rule, message]); none for a right import. */
  expect: [string, string][];
}

const CLI_ONLY =
  'cli/ is a separate program that imports only shared/ and cli/: move what both need into shared/, or ask the daemon over the socket';
const EXTENSION_CLIENT =
  'extension/ is a client of the daemon: it never imports server/ or cli/; move what both need into shared/, or ask the daemon over the socket';
const CONVERSATIONS_BELOW_REAP =
  'server/conversations sits below server/reap: move what both need to server/util, or have the caller hand it in';
const AUTHORITY_BELOW =
  'server/authority sits below the features it guards: read what it needs from server/conversations, or have the caller hand it in';
const zone = (importPath: string, message: string): [string, string] => [
  'import-x/no-restricted-paths',
  `Unexpected path "${importPath}" imported in restricted zone. ${message}`,
];
const NO_VSCODE: [string, string] = [
  'no-restricted-imports',
  "'vscode' import is restricted from being used. only extension/ may import vscode (server/, cli/, shared/ and webview/ run outside the editor)",
];

const PROBES: Record<string, Probe[]> = {
  'the command line imports only shared/ and cli/': [
    {
      file: 'cli/zoneProbe.ts',
      code: "import { logger } from '../server/util/log';\nexport const x = logger;\n",
      expect: [zone('../server/util/log', CLI_ONLY)],
    },
    {
      file: 'cli/commands/zoneProbe.ts',
      code: "import { launchLane } from '../../server/lanes/launch';\nexport const x = launchLane;\n",
      expect: [zone('../../server/lanes/launch', CLI_ONLY)],
    },
    {
      file: 'cli/zoneProbe.ts',
      code: "import type { App } from '../server/app';\nexport type X = App;\n",
      expect: [zone('../server/app', CLI_ONLY)],
    },
    {
      file: 'cli/zoneProbe.ts',
      code: "import { putShimOnTerminalPath } from '../extension/terminal/terminalPath';\nexport const x = putShimOnTerminalPath;\n",
      expect: [zone('../extension/terminal/terminalPath', CLI_ONLY)],
    },
    {
      file: 'cli/zoneProbe.ts',
      code: "import * as vscode from 'vscode';\nexport const x = vscode;\n",
      expect: [NO_VSCODE],
    },
    {
      file: 'cli/commands/zoneProbe.ts',
      code: "import * as fs from 'node:fs';\nimport { SVC_VERSION } from '../../shared/version';\nimport { parseArgs } from '../cli';\nexport const x = [fs, SVC_VERSION, parseArgs];\n",
      expect: [],
    },
  ],
  'the extension never imports server/ or cli/': [
    {
      file: 'extension/zoneProbe.ts',
      code: "import { openDb } from '../server/store/db';\nexport const x = openDb;\n",
      expect: [zone('../server/store/db', EXTENSION_CLIENT)],
    },
    {
      file: 'extension/commands/zoneProbe.ts',
      code: "import { runCli } from '../../cli/main';\nexport const x = runCli;\n",
      expect: [zone('../../cli/main', EXTENSION_CLIENT)],
    },
    {
      file: 'extension/commands/zoneProbe.ts',
      code: "import * as vscode from 'vscode';\nimport { SVC_VERSION } from '../../shared/version';\nexport const x = [vscode, SVC_VERSION];\n",
      expect: [],
    },
  ],
  'conversations never import reap': [
    {
      file: 'server/conversations/zoneProbe.ts',
      code: "import { processesInside } from '../reap/processesInside';\nexport const x = processesInside;\n",
      expect: [zone('../reap/processesInside', CONVERSATIONS_BELOW_REAP)],
    },
    {
      file: 'server/conversations/zoneProbe.ts',
      code: "import { procCommand } from '../util/processGroup';\nexport const x = procCommand;\n",
      expect: [],
    },
    // The other way round is the intended direction.
    {
      file: 'server/reap/zoneProbe.ts',
      code: "import { logger } from '../util/log';\nimport { agentEnv } from '../conversations/agentEnv';\nexport const x = [logger, agentEnv];\n",
      expect: [],
    },
  ],
  'authority never imports the features it guards': [
    {
      file: 'server/authority/zoneProbe.ts',
      code: "import { reviewerOf } from '../review/reviewers';\nexport const x = reviewerOf;\n",
      expect: [zone('../review/reviewers', AUTHORITY_BELOW)],
    },
    {
      file: 'server/authority/zoneProbe.ts',
      code: "import { reviewSeatOf } from '../conversations/reviewSeat';\nexport const x = reviewSeatOf;\n",
      expect: [],
    },
  ],
  'the boundaries that were there before': [
    {
      file: 'server/hosts/zoneProbe.ts',
      code: "import { launchLane } from '../lanes/launch';\nexport const x = launchLane;\n",
      expect: [
        zone(
          '../lanes/launch',
          'server/hosts sits below server/lanes: move what both need to server/util or server/git, or have the caller hand it in',
        ),
      ],
    },
    {
      file: 'server/zoneProbe.ts',
      code: "import * as vscode from 'vscode';\nexport const x = vscode;\n",
      expect: [NO_VSCODE],
    },
    {
      file: 'shared/zoneProbe.ts',
      code: "import * as vscode from 'vscode';\nexport const x = vscode;\n",
      expect: [NO_VSCODE],
    },
    {
      file: 'webview/zoneProbe.ts',
      code: "import * as fs from 'node:fs';\nexport const x = fs;\n",
      expect: [
        [
          'no-restricted-imports',
          "'node:fs' import is restricted from being used. webviews run in a browser: no Node built-ins (post a message to the extension instead)",
        ],
      ],
    },
  ],
};

describe('lint zones: each folder boundary fails on a wrong import', function () {
  // Loading ESLint, typescript-eslint and the config takes seconds on a loaded machine; the
  // probes themselves are quick.
  this.timeout(90_000);
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({
      cwd: REPO,
      overrideConfig: [tseslint.configs.disableTypeChecked, { rules: { 'import-x/no-cycle': 'off' } }],
    });
  });

  for (const [title, probes] of Object.entries(PROBES)) {
    describe(title, () => {
      for (const probe of probes) {
        const first = probe.code.split('\n')[0];
        it(`${probe.file}: ${first} → ${probe.expect.length ? 'refused' : 'allowed'}`, async () => {
          const [result] = await eslint.lintText(probe.code, { filePath: path.join(REPO, probe.file) });
          assert.deepEqual(
            result.messages.map((m) => [m.ruleId, m.message]),
            probe.expect,
          );
        });
      }
    });
  }

  it('the probes ran on the real config: the zone rule is on for every TypeScript file', async () => {
    const config = (await eslint.calculateConfigForFile(path.join(REPO, 'cli', 'zoneProbe.ts'))) as {
      rules: Record<string, unknown[]>;
    };
    assert.equal(config.rules['import-x/no-restricted-paths'][0], 2);
  });
});
