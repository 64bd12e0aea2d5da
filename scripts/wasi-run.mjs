// Runs a wasm32-wasip1 program (a test binary) under Node's built-in WASI, with the
// arguments and environment given, the file system visible from `/`, and its exit status.
// Cargo's runner for that target: CARGO_TARGET_WASM32_WASIP1_RUNNER="node scripts/wasi-run.mjs"
// (.ci/run sets it). Node is in the system packages; nothing else is installed.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import process from 'node:process';

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error('usage: node scripts/wasi-run.mjs PROGRAM.wasm [ARGS...]');
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: [program, ...args],
  env: process.env,
  preopens: { '/': '/' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exit(wasi.start(instance));
