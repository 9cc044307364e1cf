// The shim's argument parser and help text (cli/cli.ts), and `--help` on every
// command of the real registry through runCli (no daemon is needed for help).
import * as assert from 'node:assert/strict';
import { bool, helpText, int, parseArgs, str, UsageError } from '../../cli/cli';
import type { CliIo, CommandSpec } from '../../cli/cli';
import { hotCommand, HOT_COMMANDS } from '../../cli/hotCommands';
import { findCommand, runCli } from '../../cli/main';
import { COMMANDS } from '../../cli/registry';

const spec: CommandSpec = {
  path: ['thing', 'do'],
  summary: 'do a thing',
  usage: ['<name> [<more>...] [--json]', '--all'],
  flags: {
    json: { type: 'boolean', help: 'print JSON instead of text' },
    all: { type: 'boolean', help: 'every thing', short: 'a' },
    title: { type: 'string', help: 'the title', short: 't', value: '<text>' },
    lines: { type: 'int', help: 'how many lines', short: 'n' },
    mode: { type: 'string', help: 'the mode' },
  },
  positionals: [
    { name: 'name', required: true },
    { name: 'more', rest: true },
  ],
  details: 'Some details.',
  run: async () => 0,
};

const noRest: CommandSpec = { ...spec, positionals: [{ name: 'key', required: true }, { name: 'path' }] };

function usage(argv: string[], s: CommandSpec = spec): string {
  try {
    parseArgs(s, argv);
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e.message;
  }
  assert.fail(`no usage error for ${JSON.stringify(argv)}`);
}

describe('shim argument parser', () => {
  it('reads --flag value and --flag=value, keeping the rest as positionals', () => {
    assert.deepEqual(parseArgs(spec, ['x', '--title', 'hello world', 'y']), {
      flags: { title: 'hello world' },
      positionals: ['x', 'y'],
    });
    assert.deepEqual(parseArgs(spec, ['--title=a=b', 'x']), { flags: { title: 'a=b' }, positionals: ['x'] });
    assert.deepEqual(parseArgs(spec, ['x', '--title=']), { flags: { title: '' }, positionals: ['x'] });
  });

  it('takes the next word as a value even when it looks like a flag', () => {
    assert.deepEqual(parseArgs(spec, ['x', '--title', '--json']), { flags: { title: '--json' }, positionals: ['x'] });
    assert.deepEqual(parseArgs(spec, ['x', '--mode', '-']), { flags: { mode: '-' }, positionals: ['x'] });
  });

  it('reads short flags', () => {
    assert.deepEqual(parseArgs(spec, ['-a', 'x', '-t', 'T', '-n', '3']), {
      flags: { all: true, title: 'T', lines: 3 },
      positionals: ['x'],
    });
  });

  it('booleans take no value', () => {
    assert.deepEqual(parseArgs(spec, ['x', '--json']).flags, { json: true });
    assert.equal(usage(['x', '--json=true']), '--json takes no value');
    assert.equal(usage(['x', '--json=']), '--json takes no value');
  });

  it('ints are whole numbers, negative allowed', () => {
    assert.deepEqual(parseArgs(spec, ['x', '--lines', '42']).flags, { lines: 42 });
    assert.deepEqual(parseArgs(spec, ['x', '--lines=-3']).flags, { lines: -3 });
    assert.deepEqual(parseArgs(spec, ['x', '--lines', '007']).flags, { lines: 7 });
    assert.equal(usage(['x', '--lines', '1.5']), "--lines needs a whole number, got '1.5'");
    assert.equal(usage(['x', '--lines', 'ten']), "--lines needs a whole number, got 'ten'");
    assert.equal(usage(['x', '--lines=']), "--lines needs a whole number, got ''");
    assert.equal(usage(['x', '-n', '1e3']), "--lines needs a whole number, got '1e3'");
  });

  it('`--` ends the flags; `-` alone is a positional', () => {
    assert.deepEqual(parseArgs(spec, ['x', '--', '--json', '-a', '--']), {
      flags: {},
      positionals: ['x', '--json', '-a', '--'],
    });
    assert.deepEqual(parseArgs(spec, ['-', '--json']), { flags: { json: true }, positionals: ['-'] });
  });

  it('refuses unknown flags, long and short', () => {
    assert.equal(usage(['x', '--nope']), 'unknown flag --nope');
    assert.equal(usage(['x', '--nope=1']), 'unknown flag --nope');
    assert.equal(usage(['x', '-z']), 'unknown flag -z');
    assert.equal(usage(['x', '-at']), 'unknown flag -at', 'short flags are not bundled');
    assert.equal(usage(['x', '---json']), 'unknown flag ---json (did you mean --json?)');
  });

  it('names the nearest flag of a mistyped one, and only a near one', () => {
    assert.equal(usage(['x', '--tilte', 'T']), 'unknown flag --tilte (did you mean --title?)');
    assert.equal(usage(['x', '--lnes=3']), 'unknown flag --lnes (did you mean --lines?)');
    assert.equal(usage(['x', '--jsno']), 'unknown flag --jsno (did you mean --json?)');
    assert.equal(usage(['x', '--colour']), 'unknown flag --colour');
  });

  it('refuses a value outside a flag’s choices, naming them all', () => {
    const choosy: CommandSpec = {
      ...spec,
      flags: { ...spec.flags, role: { type: 'string', help: 'the role', choices: ['builder', 'critic'] } },
    };
    assert.equal(usage(['x', '--role', 'buider'], choosy), "unknown role 'buider' (builder, critic)");
    assert.deepEqual(parseArgs(choosy, ['x', '--role=critic']).flags, { role: 'critic' });
  });

  it('points an extra word that is a flag’s name at the flag', () => {
    assert.equal(usage(['k', 'p', 'json'], noRest), "unexpected argument 'json'; did you mean --json?");
    assert.equal(usage(['k', 'p', 'title'], noRest), "unexpected argument 'title'; did you mean --title <text>?");
  });

  it('points an extra word at the flag it was meant as: name=value, a choice, a near miss', () => {
    const choosy: CommandSpec = {
      ...noRest,
      flags: { ...noRest.flags, role: { type: 'string', help: 'the role', choices: ['builder', 'critic'] } },
    };
    assert.equal(usage(['k', 'p', 'title=x'], choosy), "unexpected argument 'title=x'; did you mean --title x?");
    assert.equal(
      usage(['k', 'p', 'role=critic'], choosy),
      "unexpected argument 'role=critic'; did you mean --role critic?",
    );
    assert.equal(usage(['k', 'p', 'critic'], choosy), "unexpected argument 'critic'; did you mean --role critic?");
    assert.equal(usage(['k', 'p', 'jsno'], choosy), "unexpected argument 'jsno'; did you mean --json?");
    assert.equal(usage(['k', 'p', 'json=1'], choosy), "unexpected argument 'json=1'");
    assert.equal(usage(['k', 'p', 'al'], choosy), "unexpected argument 'al'");
    assert.equal(usage(['k', 'p', 'constructor'], choosy), "unexpected argument 'constructor'");
  });

  it('refuses a flag without its value', () => {
    assert.equal(usage(['x', '--title']), '--title needs a value');
    assert.equal(usage(['x', '-n']), '--lines needs a value');
  });

  it('refuses a flag given twice, whatever its spelling', () => {
    assert.equal(usage(['x', '--title', 'a', '--title', 'b']), '--title given twice');
    assert.equal(usage(['x', '-t', 'a', '--title=b']), '--title given twice');
    assert.equal(usage(['x', '--json', '--json']), '--json given twice');
  });

  it('checks positionals: required, extra, rest', () => {
    assert.equal(usage([]), 'missing <name>');
    assert.equal(usage(['--json']), 'missing <name>');
    assert.deepEqual(parseArgs(spec, ['a', 'b', 'c', 'd']).positionals, ['a', 'b', 'c', 'd']);
    assert.equal(usage([], noRest), 'missing <key>');
    assert.deepEqual(parseArgs(noRest, ['k']).positionals, ['k']);
    assert.deepEqual(parseArgs(noRest, ['k', 'p']).positionals, ['k', 'p']);
    assert.equal(usage(['k', 'p', 'q'], noRest), "unexpected argument 'q'");
  });

  it('typed accessors read what the parser stored', () => {
    const a = parseArgs(spec, ['x', '--title', 't', '--lines', '2', '--json']);
    assert.equal(str(a, 'title'), 't');
    assert.equal(int(a, 'lines'), 2);
    assert.equal(bool(a, 'json'), true);
    assert.equal(bool(a, 'all'), false);
    assert.equal(str(a, 'mode'), undefined);
    assert.equal(int(a, 'nothing'), undefined);
  });

  it('help text: summary, usage lines, aligned flags with short forms and placeholders, details', () => {
    assert.equal(
      helpText(spec),
      [
        'svc thing do — do a thing',
        '',
        'Usage:',
        '  svc thing do <name> [<more>...] [--json]',
        '  svc thing do --all',
        '',
        'Flags:',
        '  --json              print JSON instead of text',
        '  -a, --all           every thing',
        '  -t, --title <text>  the title',
        '  -n, --lines <n>     how many lines',
        '  --mode <value>      the mode',
        '',
        'Some details.',
        '',
      ].join('\n'),
    );
    assert.equal(
      helpText({ ...spec, flags: {}, details: undefined, usage: [''] }),
      'svc thing do — do a thing\n\nUsage:\n  svc thing do\n',
    );
  });
});

describe('svc --help on every command (runCli with the real registry)', () => {
  function io(): CliIo & { stdout: string; stderr: string } {
    const o = {
      stdout: '',
      stderr: '',
      out: (t: string) => void (o.stdout += t),
      err: (t: string) => void (o.stderr += t),
      env: { SVC_HOME: '/nonexistent/svc-unit-test-must-not-be-used' },
      cwd: '/',
      stdin: async () => '',
    };
    return o;
  }

  it('every command has a summary, usage, and help for each flag', () => {
    assert.ok(COMMANDS.length > 0);
    const seen = new Set<string>();
    for (const c of COMMANDS) {
      const name = c.path.join(' ');
      assert.ok(!seen.has(name), `${name} is declared twice`);
      seen.add(name);
      assert.ok(c.summary.trim().length > 0, `${name} has a summary`);
      assert.ok(c.usage.length > 0, `${name} has usage`);
      for (const [flag, f] of Object.entries(c.flags)) {
        assert.ok(f.help.trim().length > 0, `${name} --${flag} has help`);
        assert.match(flag, /^[a-z][a-z0-9-]*$/, `${name} --${flag} is a kebab-case name`);
      }
      const shorts = Object.values(c.flags).flatMap((f) => (f.short ? [f.short] : []));
      assert.equal(new Set(shorts).size, shorts.length, `${name} has no short flag twice`);
    }
  });

  for (const c of COMMANDS) {
    it(`svc ${c.path.join(' ')} --help prints its help and exits 0`, async () => {
      for (const h of ['--help', '-h']) {
        const o = io();
        assert.equal(await runCli([...c.path, h], o), 0);
        assert.equal(o.stdout, helpText(c));
        assert.equal(o.stderr, '');
      }
    });
  }

  it('svc --help lists every command; svc --version prints the version', async () => {
    const o = io();
    assert.equal(await runCli(['--help'], o), 0);
    for (const c of COMMANDS) assert.ok(o.stdout.includes(`  ${c.path.join(' ')}`), c.path.join(' '));
    const v = io();
    assert.equal(await runCli(['--version'], v), 0);
    assert.match(v.stdout, /^svc \d+\.\d+\.\d+\S*\n$/);
  });

  it('a hot command (run by dist/svc.js without the full command line) is the one the full command line picks', () => {
    assert.ok(HOT_COMMANDS.some((c) => c.path.join(' ') === 'daemon status'));
    for (const c of HOT_COMMANDS) {
      for (const extra of [[], ['--json'], ['--help'], ['x', '--', '--help']]) {
        const argv = [...c.path, ...extra];
        const full = findCommand(argv);
        assert.deepEqual(hotCommand(argv), { spec: full.spec, rest: full.rest }, argv.join(' '));
      }
    }
    for (const argv of [['daemon'], ['daemon', 'frob'], ['lane', 'list'], ['conv', 'new'], ['--version'], []]) {
      assert.equal(hotCommand(argv), undefined, argv.join(' '));
    }
  });

  it('an unknown command exits 1 with a pointer to --help', async () => {
    const o = io();
    assert.equal(await runCli(['frobnicate', 'now'], o), 1);
    assert.equal(o.stderr, "svc: unknown command 'frobnicate' (see svc --help)\n");
    const d = io();
    assert.equal(await runCli(['daemon', 'frob'], d), 1);
    assert.equal(d.stderr, "svc: unknown command 'daemon frob' (see svc --help)\n");
  });

  it('an unknown command near a known one says which was meant', async () => {
    const l = io();
    assert.equal(await runCli(['lane', 'strat', '--role', 'builder'], l), 1);
    assert.equal(l.stderr, "svc: unknown command 'lane strat'; did you mean 'svc lane start'? (see svc --help)\n");
    const r = io();
    assert.equal(await runCli(['reveiw', 'start'], r), 1);
    assert.equal(r.stderr, "svc: unknown command 'reveiw'; did you mean 'svc review'? (see svc --help)\n");
  });

  it('usage errors of the real commands speak the person’s words, before any daemon is asked', async () => {
    const role = io();
    assert.equal(await runCli(['lane', 'start', '--key', 'k', '--role', 'buider', '--prompt', 'p'], role), 1);
    assert.equal(
      role.stderr,
      "svc lane start: unknown role 'buider' (builder, critic, verifier, play, orchestrator)\nsee svc lane start --help\n",
    );
    const allow = io();
    assert.equal(await runCli(['conv', 'answer', '2', 'allow'], allow), 1);
    assert.equal(
      allow.stderr,
      "svc conv answer: unexpected argument 'allow'; did you mean --allow?\nsee svc conv answer --help\n",
    );
    const deny = io();
    assert.equal(await runCli(['conv', 'answer', '2', 'deyn'], deny), 1);
    assert.equal(
      deny.stderr,
      "svc conv answer: unexpected argument 'deyn'; did you mean --deny?\nsee svc conv answer --help\n",
    );
    const kill = io();
    assert.equal(await runCli(['conv', 'stop', '2', 'kill'], kill), 1);
    assert.equal(
      kill.stderr,
      "svc conv stop: unexpected argument 'kill'; did you mean --kill?\nsee svc conv stop --help\n",
    );
    for (const o of [role, allow, deny, kill]) assert.equal(o.stdout, '');
  });

  it('a group without a command lists its commands (exit 1; with --help exit 0)', async () => {
    const o = io();
    assert.equal(await runCli(['daemon'], o), 1);
    assert.match(o.stdout, /^svc daemon — commands:\n {2}daemon status /);
    const h = io();
    assert.equal(await runCli(['daemon', '--help'], h), 0);
    assert.equal(h.stdout, o.stdout);
  });

  it('a usage error exits 1 with one line and where the help is, before any daemon is asked', async () => {
    const o = io();
    assert.equal(await runCli(['daemon', 'log', '--lines', 'x'], o), 1);
    assert.equal(o.stderr, "svc daemon log: --lines needs a whole number, got 'x'\nsee svc daemon log --help\n");
    assert.equal(o.stdout, '');
  });

  it("after `--`, '--help' is an argument, not a request for help", async () => {
    const o = io();
    // project add <key> <path>: '--help' becomes the path; the parse then fails on the
    // extra argument, which shows that help was not printed and parsing ran.
    assert.equal(await runCli(['project', 'add', 'k', '--', '--help', 'extra'], o), 1);
    assert.match(o.stderr, /^svc project add: unexpected argument 'extra'\n/);
  });
});
