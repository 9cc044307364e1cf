// config/get, config/set, config/roles and config/models: role and review settings over
// the daemon, for `svc config` and the Roles panel. Writes keep the files' comments and
// layout (ConfigStore.edit); every change, ours or an editor's, is broadcast as
// `svc/changed {topic: 'config'}`.
import * as path from 'node:path';
import { z } from 'zod';
import { Effort, HarnessName, HostName, LaneGitLayout, ModelName, ReviewMode, SandboxMode } from '../../shared/config';
import { modelIdProblem } from '../../shared/modelId';
import { CONFIG_KEY_FORMS, globalConfigKeys, parseConfigKey, projectConfigKeys } from '../../shared/configKeys';
import { parseUsd } from '../../shared/format/money';
import type { ConfigField, ConfigKeyRef } from '../../shared/configKeys';
import { configGet, configModels, configRoles, configSet } from '../../shared/protocol/config';
import { PERMISSIONS } from '../../shared/config';
import type { App } from '../app';
import { BUILT_IN_HARNESSES, resolveProfile } from '../harness/profiles';
import { invalidConfigValueError, unknownConfigKeyError } from './configRefusals';
import { watchConfigFiles } from './configWatch';
import { ModelProbes, probeDir } from './modelProbe';
import { entryFor } from './roleSettings';
import type { SettingsSource } from './roleSettings';
import { rolesView } from './rolesView';

const FIELD_SCHEMA: Record<ConfigField, z.ZodType> = {
  mode: ReviewMode,
  effort: Effort,
  model: ModelName,
  harness: HarnessName,
  permissions: z.enum(PERMISSIONS),
  host: HostName,
  sandbox: SandboxMode,
  // An amount as typed (`2.50`, `$2.50`); checked by parseUsd, written to the file as a number.
  budget: z.string(),
  // A whole number of MiB as typed; written to the file as a number (shared/config.ts's ParkMb checks its range).
  park_warn_mb: z.string().regex(/^\s*[1-9]\d*\s*$/, 'a size is a whole number of MiB, such as 100'),
  park_max_mb: z.string().regex(/^\s*[1-9]\d*\s*$/, 'a size is a whole number of MiB, such as 1024'),
  // Whole seconds as typed, at most an hour (ReviewRoles' range); written to the file as a number.
  debounce: z
    .string()
    .regex(/^\s*\d+\s*$/, 'a quiet window is a whole number of seconds, such as 60 (0: a review per push)')
    .refine((v) => Number(v) <= 3600, 'a quiet window is at most 3600 seconds (an hour)'),
  git: LaneGitLayout,
};

const SERVICE_VARS = ['SVC_CONVERSATION', 'SVC_CALLER_TOKEN', 'SVC_HOME', 'SVC_BIN', 'SVC_SCRIPT_FILE'];

export function registerConfig(app: App): void {
  const files = { config: app.paths.config, projects: app.paths.projects };
  const fileOf = (ref: ConfigKeyRef) => files[ref.file];
  const watch = watchConfigFiles([files.projects, files.config], () => {
    app.config.invalidate();
    app.notify({ topic: 'config' });
  });
  app.onStop(() => watch.close());

  const settings = (): SettingsSource => ({ config: app.config.config(), projects: app.config.projects(), files });
  const refOf = (key: string): ConfigKeyRef => {
    const ref = parseConfigKey(key);
    if (!ref) throw unknownConfigKeyError(key, CONFIG_KEY_FORMS);
    if (ref.project) app.config.project(ref.project); // unknown project → notFound
    return ref;
  };

  app.rpc.handle(configGet, (p) => {
    const s = settings();
    const keys =
      p.key !== undefined
        ? [p.key]
        : [...globalConfigKeys(), ...Object.keys(s.projects.projects).flatMap(projectConfigKeys)];
    return { entries: keys.map((k) => entryFor(refOf(k), s)) };
  });

  app.rpc.handle(configSet, (p) => {
    const ref = refOf(p.key);
    const file = fileOf(ref);
    const text = p.value === null ? undefined : p.value.trim();
    if (text !== undefined) checkValue(ref, p.value!, file, app);
    // Budgets, sizes and seconds are numbers in the file (the schema's), however they were typed.
    const value =
      text === undefined
        ? text
        : ref.field === 'budget'
          ? (parseUsd(text) as { usd: number }).usd
          : ref.path[0] === 'reap' || ref.field === 'debounce'
            ? Number(text)
            : text;
    const { changed } = app.config.edit(file, ref.path, value, ref.keepDepth);
    if (changed) {
      watch.seen(file);
      app.notify({ topic: 'config' });
    }
    return { entry: entryFor(ref, settings()), changed, file };
  });

  app.rpc.handle(configRoles, () => rolesView(settings(), harnessNames(app), Object.keys(app.config.config().hosts)));

  const probes = new ModelProbes((harness) => {
    const profile = resolveProfile(harness, app.config.config(), app.distDir, shown(app.paths.config));
    const env: NodeJS.ProcessEnv = { ...process.env, ...profile.env };
    for (const k of SERVICE_VARS) delete env[k];
    return { profile, cwd: probeDir(app.paths.home, harness), env };
  }, app.now);
  app.rpc.handle(configModels, (p) => probes.models(p.harness, p.refresh ?? false));
}

/** The field's own schema first, for a reason that names the key; the whole file is validated on write. */
function checkValue(ref: ConfigKeyRef, raw: string, file: string, app: App): void {
  const refuse = (why: string) => invalidConfigValueError(ref.key, raw, why, shown(file));
  const r = FIELD_SCHEMA[ref.field].safeParse(raw);
  if (!r.success) throw refuse(r.error.issues[0].message);
  if (ref.field === 'budget') {
    const usd = parseUsd(raw);
    if ('why' in usd) throw refuse(usd.why);
  }
  // Only on write: a file an editor wrote with an odd model still loads (the harness judges it).
  const badModel = ref.field === 'model' ? modelIdProblem(raw) : undefined;
  if (badModel) throw refuse(badModel);
  if (ref.field === 'harness') {
    const known = harnessNames(app);
    if (!known.includes(raw.trim())) {
      throw refuse(
        `unknown harness (use ${known.join(', ')}, or add a profile under harnesses: in ${shown(app.paths.config)})`,
      );
    }
  }
  if (ref.field === 'host') {
    const hosts = Object.keys(app.config.config().hosts);
    if (!hosts.includes(raw.trim())) {
      throw refuse(
        `no host '${raw.trim()}' under hosts: in ${shown(app.paths.config)} (${hosts.length ? `configured: ${hosts.join(', ')}` : 'none configured'})`,
      );
    }
  }
}

function harnessNames(app: App): string[] {
  const custom = Object.keys(app.config.config().harnesses).filter(
    (h) => !(BUILT_IN_HARNESSES as readonly string[]).includes(h),
  );
  return [...BUILT_IN_HARNESSES, ...custom];
}

/** A path under HOME as `~/…`, as messages show config files elsewhere. */
function shown(file: string): string {
  const home = process.env.HOME;
  return home && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
