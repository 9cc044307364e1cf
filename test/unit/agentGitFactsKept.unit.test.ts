// An agent's git facts are kept per folder while the config files git read them from say the
// same (agentGitFacts.ts). The repository's config is judged by its content without the
// branches' sections: a lane launch writes its branch's upstream there, and the next launch
// in the project must not probe again for that; any other change to it is seen. Real git.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentGitFacts, forgetAgentGitFacts } from '../../server/conversations/agentGitFacts';
import { gitScratch } from '../helpers/gitScratch';

const REPO = path.resolve(__dirname, '..', '..');
// Past the margin for a config written while a probe runs (its mtime against the probe's start).
const settle = () => new Promise((r) => setTimeout(r, 120));

describe('agent git facts kept across starts in one folder', () => {
  const root = path.join(REPO, '.scratch', `unit-agentfactskept-${process.pid}`);
  const repo = path.join(root, 'repo');
  const { env, git } = gitScratch(root);
  const config = path.join(repo, '.git', 'config');

  before(() => {
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '--initial-branch=main');
    git(repo, 'config', 'user.name', 'Ada');
  });
  beforeEach(async () => {
    forgetAgentGitFacts();
    await settle();
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it("a branch's upstream written into the repository config keeps the answer", async () => {
    const first = agentGitFacts(repo, env);
    assert.equal((await first).identity.GIT_AUTHOR_NAME, 'Ada');
    git(repo, 'config', 'branch.run/k1.remote', 'origin');
    git(repo, 'config', 'branch.run/k1.merge', 'refs/heads/run/k1');
    assert.equal(agentGitFacts(repo, env), first, 'probed again after a branch section was written');
    git(repo, 'config', '--remove-section', 'branch.run/k1');
    assert.equal(agentGitFacts(repo, env), first);
  });

  it('any other change to the repository config is seen, next to a branch section or not', async () => {
    const first = agentGitFacts(repo, env);
    await first;
    git(repo, 'config', 'branch.run/k2.remote', 'origin');
    git(repo, 'config', 'user.name', 'Bea');
    const second = agentGitFacts(repo, env);
    assert.notEqual(second, first);
    assert.equal((await second).identity.GIT_AUTHOR_NAME, 'Bea');
    git(repo, 'config', 'user.name', 'Ada');
    assert.equal((await agentGitFacts(repo, env)).identity.GIT_AUTHOR_NAME, 'Ada');
  });

  it('a key written on the line of a branch header is not taken for part of the section', async () => {
    const first = agentGitFacts(repo, env);
    await first;
    await settle();
    fs.appendFileSync(config, '[branch "x"] remote = origin\n[user]\n\tname = Cy\n');
    const second = agentGitFacts(repo, env);
    assert.notEqual(second, first);
    assert.equal((await second).identity.GIT_AUTHOR_NAME, 'Cy');
    await settle();
    // A continued line could carry anything into a branch section: the whole file counts then.
    fs.appendFileSync(config, '[branch "y"]\n\tdescription = a \\\n\tb\n');
    assert.notEqual(agentGitFacts(repo, env), second);
    fs.writeFileSync(
      config,
      fs.readFileSync(config, 'utf8').replace(/\[branch "x"\][^\n]*\n\[user\]\n\tname = Cy\n/, ''),
    );
  });

  it('a config written while the probe ran is not kept', async () => {
    const first = agentGitFacts(repo, env);
    git(repo, 'config', 'user.name', 'Dee'); // lands while the probe's gits run: they may have read Ada
    await first;
    const next = agentGitFacts(repo, env);
    assert.notEqual(next, first);
    assert.equal((await next).identity.GIT_AUTHOR_NAME, 'Dee');
    git(repo, 'config', 'user.name', 'Ada');
  });
});
