// Reads projects.yaml and config.yaml on demand, re-parsing only when a file changed
// (mtime and size), so edits take effect without restarting the daemon. Writes go
// through the YAML document API so comments and key order survive.
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import type { z } from 'zod';
import { ConfigFile, describeIssues, ProjectsFile } from '../../shared/config';
import type { Project } from '../../shared/config';
import { realOrSelf } from '../util/realPath';
import { invalidConfigError, unknownProjectError } from './configRefusals';
import { editYaml, YamlSyntaxError } from './yamlEdit';
import type { EditResult } from './yamlEdit';

interface Cached<T> {
  stamp: string;
  value: T;
}

export class ConfigStore {
  private cache = new Map<string, Cached<unknown>>();

  constructor(
    readonly projectsFile: string,
    readonly configFile: string,
  ) {}

  projects(): ProjectsFile {
    return this.read(this.projectsFile, ProjectsFile);
  }

  config(): ConfigFile {
    return this.read(this.configFile, ConfigFile);
  }

  project(key: string): Project & { key: string } {
    const p = this.projects().projects[key];
    if (!p) throw unknownProjectError(key);
    return { ...p, key };
  }

  /** The project whose checkout contains `dir`, if any. */
  projectForPath(dir: string): (Project & { key: string }) | undefined {
    const real = realOrSelf(dir);
    for (const [key, p] of Object.entries(this.projects().projects)) {
      const root = realOrSelf(p.path);
      if (real === root || real.startsWith(root + path.sep)) return { ...p, key };
    }
    return undefined;
  }

  /** Sets `keyPath` in a YAML file, validating the whole result first; the file is untouched on refusal. */
  setIn(file: string, keyPath: (string | number)[], value: unknown): void {
    const schema = file === this.projectsFile ? ProjectsFile : ConfigFile;
    const doc = this.loadDocument(file);
    if (value === undefined) doc.deleteIn(keyPath);
    else doc.setIn(keyPath, value);
    const parsed = schema.safeParse(doc.toJS() ?? {});
    if (!parsed.success) throw invalidConfigError(describeIssues(file, parsed.error));
    writeAtomic(file, doc.toString());
    this.cache.delete(file);
  }

  /**
   * Sets (or with `value` undefined, removes) one key, keeping every other byte of the
   * file where it can (see yamlEdit.ts). The whole result is validated with the file's
   * schema first; on refusal, or when nothing changes, the file is not written.
   */
  edit(file: string, keyPath: string[], value: string | number | undefined, keepDepth = 0): { changed: boolean } {
    const schema = file === this.projectsFile ? ProjectsFile : ConfigFile;
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    let r: EditResult;
    try {
      r = editYaml(text, keyPath, value, keepDepth);
    } catch (e) {
      if (e instanceof YamlSyntaxError) throw invalidConfigError(`${file}: ${e.message}`);
      throw e;
    }
    const parsed = schema.safeParse(r.data);
    if (!parsed.success) throw invalidConfigError(describeIssues(file, parsed.error));
    if (!r.changed) return { changed: false };
    writeAtomic(file, r.text);
    this.cache.delete(file);
    return { changed: true };
  }

  /** Forgets parsed files, so the next read re-parses (an edit within the same mtime tick). */
  invalidate(): void {
    this.cache.clear();
  }

  private loadDocument(file: string): YAML.Document {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const doc = YAML.parseDocument(text);
    if (doc.errors.length) throw invalidConfigError(`${file}: ${doc.errors[0].message}`);
    if (!doc.contents) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
    return doc;
  }

  private read<S extends z.ZodType>(file: string, schema: S): z.output<S> {
    let stamp = 'absent';
    try {
      const st = fs.statSync(file);
      // The inode too: an editor that saves by rename within one mtime tick, same size, is still seen.
      stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
    } catch {
      // absent file = empty config
    }
    const hit = this.cache.get(file);
    if (hit && hit.stamp === stamp) return hit.value as z.output<S>;
    const text = stamp === 'absent' ? '' : fs.readFileSync(file, 'utf8');
    let raw: unknown;
    try {
      raw = YAML.parse(text) ?? {};
    } catch (e) {
      throw invalidConfigError(`${file}: ${(e as Error).message}`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw invalidConfigError(describeIssues(file, parsed.error));
    this.cache.set(file, { stamp, value: parsed.data });
    return parsed.data;
  }
}

export function writeAtomic(file: string, text: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}
