// A PATH folder with only the tools a daemon needs to run lanes (git, sh and this Node), so a
// test can leave bubblewrap out or put a fake one in its place.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Makes `<root>/<name>` holding git, sh and node, and returns its path. */
export function toolBin(root: string, name: string): string {
  const bin = path.join(root, name);
  fs.mkdirSync(bin);
  fs.symlinkSync('/usr/bin/git', path.join(bin, 'git'));
  fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  return bin;
}
