// Sizes for people: mebibytes, the unit of config.yaml's `reap.park_*_mb` limits. Pure.
const MIB = 1024 * 1024;

/** `240 MiB`, `3.5 MiB`, `0.1 MiB`: one decimal below 10 MiB, whole numbers above. */
export function mebibytes(bytes: number): string {
  const mib = bytes / MIB;
  return `${mib < 10 ? mib.toFixed(1) : Math.round(mib).toString()} MiB`;
}
