// Runs oh7.wasm under node for the determinism test (determinism.rs beside it):
// each line of standard input is a request, each line of standard output its answer, through
// the same three exports the page's worker calls (web/worker.js).
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[2]), {});
const w = instance.exports;
const enc = new TextEncoder();
const dec = new TextDecoder();
function call(text) {
  const bytes = enc.encode(text);
  const ptr = w.oh7_alloc(bytes.length);
  new Uint8Array(w.memory.buffer).set(bytes, ptr);
  const out = w.oh7_call(ptr, bytes.length);
  return dec.decode(new Uint8Array(w.memory.buffer).slice(out, out + w.oh7_out_len()));
}
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const started = performance.now();
  const answer = call(line);
  process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, answer })}\n`);
}
