// Runs a wasm32-wasip1 program under Node's WASI: node tools/run-wasi.mjs FILE.wasm [ARGS...]
// The program sees ARGS, the environment and no files; its exit code becomes ours.
import { readFile } from 'node:fs/promises';
import { argv, env, exit } from 'node:process';
import { WASI } from 'node:wasi';

const [file, ...args] = argv.slice(2);
if (!file) {
  console.error('usage: node tools/run-wasi.mjs FILE.wasm [ARGS...]');
  exit(2);
}
const wasi = new WASI({ version: 'preview1', args: [file, ...args], env, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
