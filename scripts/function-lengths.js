#!/usr/bin/env node
// The page's functions longer than a screen: each function of Public/*.js that is not inside another
// (a closure counts in the function that holds it, as it is read with it), longest first, with its
// length in lines; the exit status is 1 when there is one.
//
//   node scripts/function-lengths.js [lines]     # default 80; 0 lists every function
//
// Parses with TypeScript's own parser, from Debian's node-typescript (make test installs it).
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require(process.env.TYPESCRIPT ?? "/usr/share/nodejs/typescript");

const limit = Number(process.argv[2] ?? 80);
const dir = path.join(__dirname, "..", "Public");
const rows = [];
for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".js")).sort()) {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(dir, file), "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const lineOf = (/** @type {number} */ pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (/** @type {import("typescript").Node} */ node) => {
    if (!ts.isFunctionLike(node) || !("body" in node) || !node.body) return ts.forEachChild(node, visit);
    const first = lineOf(node.getStart(source));
    const parent = node.parent;
    const named = node.name ?? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) ? parent.name : null);
    rows.push({ lines: lineOf(node.end) - first + 1, where: `Public/${file}:${first}`, name: named ? named.getText(source) : "(anonymous)" });
  };
  visit(source);
}
rows.sort((a, b) => b.lines - a.lines);
const over = rows.filter((row) => row.lines > limit);
for (const row of over) console.log(`${row.lines}\t${row.where}\t${row.name}`);
process.exitCode = limit > 0 && over.length ? 1 : 0;
