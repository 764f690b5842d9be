// Run a Python script under real MicroPython (the WebAssembly port from npm) with files copied into its filesystem.
//   node run_mpy.mjs SCRIPT.py [SRC=DST ...] [-- ARGS ...]
// The script's stdout/stderr are passed through; a Python exception exits 1 with its traceback on stderr.
// With MPY_CPU_REPORT set, the CPU time the script took (user + system, microseconds) goes to stderr as "CPU_US n":
// unlike wall time it does not grow when other work shares the machine.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";

const argv = process.argv.slice(2);
if (argv.length < 1) {
  process.stderr.write("usage: node run_mpy.mjs SCRIPT.py [SRC=DST ...] [-- ARGS ...]\n");
  process.exit(2);
}
const script = argv[0];
const dash = argv.indexOf("--");
const puts = argv.slice(1, dash < 0 ? argv.length : dash);
const args = dash < 0 ? [] : argv.slice(dash + 1);

const mp = await loadMicroPython({
  heapsize: 64 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
for (const spec of puts) {
  const eq = spec.indexOf("=");
  const src = spec.slice(0, eq);
  const dst = spec.slice(eq + 1);
  const parts = dst.split("/").filter((p) => p);
  let dir = "";
  for (const p of parts.slice(0, -1)) {
    dir += "/" + p;
    try { mp.FS.mkdir(dir); } catch (e) { /* exists */ }
  }
  mp.FS.writeFile(dst, fs.readFileSync(src));
}
const cpu0 = process.cpuUsage();
try {
  mp.runPython("ARGV = " + JSON.stringify([script, ...args]) + "\n");  // this port's sys has no argv
  mp.runPython(fs.readFileSync(script, "utf8"));
  const cpu = process.cpuUsage(cpu0);
  if (process.env.MPY_CPU_REPORT) process.stderr.write("CPU_US " + (cpu.user + cpu.system) + "\n");
} catch (err) {
  process.stderr.write(String(err && err.message ? err.message : err) + "\n");
  process.exit(1);
}
