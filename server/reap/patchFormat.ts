// How parked patches name their paths. Two-component prefixes, applied with -p2: with
// the usual `a/`,`b/` and -p1, `git apply` cannot read back a `diff --git` line whose
// path holds a space followed by a slash (a folder named "notes " — found by the
// property test): its header parser gives up at the first " /". With two components
// to strip, that slash never ends the prefix, and the parser finds the true split.
export const SRC_PREFIX = 'a/parked/';
export const DST_PREFIX = 'b/parked/';
export const STRIP = 2;
