// Run tokembed in Pyodide under Node, and check that it prints what CPython
// printed: node .ci/pyodide.mjs REFERENCE_FOLDER PYODIDE_FOLDER
// First it runs the README's notebook cell, which fetches tokembed.py over
// HTTP; then every view listed in REFERENCE_FOLDER/views, the figure and the
// module's doctests.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [reference, pyodideFolder] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideFolder, "pyodide.mjs")).href);
const read = (name) => readFileSync(join(reference, name), "utf8");
const fail = (message) => { console.log(`FAIL: Pyodide ${message}`); process.exit(1); };

const source = readFileSync("tokembed.py");
const server = createServer((request, response) => response.end(source));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

// the cache folder .ci/run names, so that --languages says what python3 says of it
const pyodide = await loadPyodide({ env: { HOME: "/home/pyodide",
                                           TOKEMBED_CACHE: process.env.TOKEMBED_CACHE ?? "" } });
const version = pyodide.runPython("import sys; '%d.%d.%d' % sys.version_info[:3]");
let printed = "";
const decoder = new TextDecoder();
pyodide.setStdout({ write: (bytes) => { printed += decoder.decode(bytes); return bytes.length; } });

// The README's cell, as it stands there, with URL pointing at the server.
const readme = readFileSync("README.md", "utf8");
const cell = readme.split("```python\nfrom pyodide.http import pyfetch\n")[1]?.split("```")[0];
if (cell === undefined) fail("found no notebook cell in README.md");
pyodide.globals.set("URL", `http://127.0.0.1:${server.address().port}/tokembed.py`);
await pyodide.runPythonAsync("from pyodide.http import pyfetch\n" + cell);
server.close();
if (printed !== read("lesson")) fail(`runs the README's cell differently:\n${printed}`);

const views = read("views").split("\n").slice(0, -1);
const run = pyodide.runPython(`
import os, shlex, tokembed
os.environ["COLUMNS"] = "80"
def run(view):
    status = tokembed.main(shlex.split(view))
    sys.stdout.flush()
    return status
run`);
for (const [i, view] of views.entries()) {
  printed = "";
  run(view);
  if (printed !== read(String(i))) fail(`prints 'tokembed.py ${view}' differently:\n${printed}`);
}
printed = "";
run("my order order --seed 3 --d-model 6 --padding-idx 0 --svg /tmp/figure.svg");
if (pyodide.FS.readFile("/tmp/figure.svg", { encoding: "utf8" }) !== read("figure.svg")) {
  fail("draws the figure differently");
}
// The tokenizer takes each character's class from this Python's unicodedata, so a
// text within Unicode 12.1 must be split alike on every Python: the class of each
// code point CPython 3.8 assigns (REFERENCE_FOLDER/assigned-12.1, FIRST LAST in hex
// a line), hashed, must be CPython's, which CLASSES_SHA256 pins. A build with other
// or older data must fail here, loudly.
pyodide.globals.set("ASSIGNED", read("assigned-12.1"));
const kinds = pyodide.runPython(`
import hashlib
codes = [c for line in ASSIGNED.splitlines() for first, last in [line.split()]
         for c in range(int(first, 16), int(last, 16) + 1)]
hashlib.sha256("".join(tokembed._class_letter(chr(c)) for c in codes).encode()).hexdigest()`);
if (kinds !== read("kinds").trim()) {
  fail(`classes the characters of Unicode 12.1 differently: ${kinds}`);
}
const [failed, tried] = pyodide.runPython(
  "import doctest; tuple(doctest.testmod(tokembed))").toJs();
if (failed !== 0 || tried === 0) fail(`doctests: ${failed} of ${tried} failed:\n${printed}`);
console.log(`Pyodide ${version}: same bytes (the README's cell, ${views.length} views, ` +
            `the figure, ${tried} doctests, Unicode 12.1's classes)`);
