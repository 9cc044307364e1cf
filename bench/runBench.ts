// How every bench ends: once measured it exits, since nothing it started (a socket, a
// watcher) may keep it waiting; a crash prints and exits 1 for scripts/bench.mjs to report.
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
