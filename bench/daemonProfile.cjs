// Preloaded into the daemon (NODE_OPTIONS=--require) by benches run with
// SVC_BENCH_DAEMON_PROFILE=<dir>: writes the daemon's CPU profile there when it exits
// (--cpu-prof itself is not allowed in NODE_OPTIONS). Other processes are left alone.
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

if (/daemon\.js$/.test(process.argv[1] ?? '') && process.env.SVC_BENCH_DAEMON_PROFILE) {
  const dir = process.env.SVC_BENCH_DAEMON_PROFILE;
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, r) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `daemon-${process.pid}.cpuprofile`), JSON.stringify(r.profile));
    });
  });
}
