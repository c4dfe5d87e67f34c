// Shrinks the JavaScript and CSS files `make dist` packs, in place: what a browser downloads needs no doc comments or
// long local names, and the files in www/ keep them.
//
//   node tools/minify.mjs FILE…
//
// Scripts go through terser (an npm dev dependency) as ES modules: comments and whitespace out, local names
// shortened, dead code dropped; exported names, property names and class and function names stay as they are, so
// nothing that reads them changes. Each result is checked to still parse as a module. Stylesheets lose their
// whole-line comments, blank lines and indentation (a block comment runs from a line starting with `/*` to the
// line ending with `*/`).

import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { minify } from "terser";

/**
 * A stylesheet without its whole-line comments, blank lines and indentation.
 * @param {string} text
 */
export function stripCss(text) {
  const out = [];
  let inBlock = false;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (inBlock) {
      if (trimmed.endsWith("*/")) inBlock = false;
      continue;
    } else if (trimmed.startsWith("/*")) {
      if (!trimmed.endsWith("*/") || trimmed === "/*") inBlock = true;
      continue;
    } else if (trimmed !== "") {
      out.push(trimmed);
    }
  }
  return out.join("\n") + "\n";
}

/**
 * A script, minified as an ES module.
 * @param {string} text
 * @param {string} file for messages
 */
export async function minifyScript(text, file) {
  try {
    const { code } = await minify(text, { module: true, ecma: 2022, compress: { passes: 2 }, mangle: true, keep_classnames: true, keep_fnames: true, format: { comments: false } });
    return code + "\n";
  } catch (err) {
    throw new Error(`${file} could not be minified: ${err.message}`);
  }
}

const scratch = await mkdtemp(path.join(os.tmpdir(), "minify-"));
try {
  for (const file of process.argv.slice(2)) {
    const css = file.endsWith(".css");
    const text = await readFile(file, "utf8");
    const shrunk = css ? stripCss(text) : await minifyScript(text, file);
    if (!css) {
      // `node --check` parses the module without running it.
      const copy = path.join(scratch, "check.mjs");
      await writeFile(copy, shrunk);
      try {
        execFileSync(process.execPath, ["--check", copy], { stdio: "pipe" });
      } catch (err) {
        throw new Error(`${file} does not parse after minifying:\n${err.stderr}`);
      }
    }
    await writeFile(file, shrunk);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
