// Removes whole-line comments, blank lines and indentation from the JavaScript and CSS files `make dist` packs, in place:
// what a browser downloads needs no doc comments, and the files in www/ keep them.
//
//   node tools/strip-comments.mjs FILE…
//
// Only lines that are nothing but a comment go: a line starting with `//`, or a block from a line starting with
// `/*` to the line ending with `*/`. Code lines lose only their indentation (comments after code stay), and lines
// inside template literals are never touched, so no string changes. Each script is checked to still parse as a module.

import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * The text without its whole-line comments and blank lines.
 * @param {string} text
 * @param {boolean} css only block comments exist
 */
export function stripComments(text, css) {
  const out = [];
  let inBlock = false;
  let inTemplate = false;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (inTemplate) {
      out.push(line);
    } else if (inBlock) {
      if (trimmed.endsWith("*/")) inBlock = false;
      continue;
    } else if (trimmed.startsWith("/*")) {
      if (!trimmed.endsWith("*/") || trimmed === "/*") inBlock = true;
      continue;
    } else if ((!css && trimmed.startsWith("//")) || trimmed === "") {
      continue;
    } else {
      // Indentation outside template literals means nothing to a parser.
      out.push(line.trimStart());
    }
    // A line with an odd number of backticks (none escaped) opens or closes a template literal.
    if (!css && (line.match(/(?<!\\)`/g)?.length ?? 0) % 2 === 1) inTemplate = !inTemplate;
  }
  return out.join("\n") + "\n";
}

const scratch = await mkdtemp(path.join(os.tmpdir(), "strip-"));
try {
  for (const file of process.argv.slice(2)) {
    const css = file.endsWith(".css");
    const stripped = stripComments(await readFile(file, "utf8"), css);
    if (!css) {
      // `node --check` parses the module without running it.
      const copy = path.join(scratch, "check.mjs");
      await writeFile(copy, stripped);
      try {
        execFileSync(process.execPath, ["--check", copy], { stdio: "pipe" });
      } catch (err) {
        throw new Error(`${file} does not parse after stripping comments:\n${err.stderr}`);
      }
    }
    await writeFile(file, stripped);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
