// .ci/same-ids in Pyodide under Node: node .ci/same-ids.mjs PYODIDE_FOLDER FOLDER TEXTS
// prints what PYTHON .ci/same-ids FOLDER TEXTS prints, for .ci/run to compare. FOLDER's
// vocabulary files, TEXTS and this clone's tokembed.py and .ci/same-ids are copied
// into Pyodide's own file system first (it reads no file of the machine's).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideFolder, folder, texts] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideFolder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ env: { HOME: "/home/pyodide" } });
const { FS } = pyodide;
for (const path of ["/clone", "/clone/.ci", "/vocab"]) FS.mkdirTree(path);
FS.writeFile("/clone/tokembed.py", readFileSync("tokembed.py"));
FS.writeFile("/clone/.ci/same-ids", readFileSync(".ci/same-ids"));
for (const name of readdirSync(folder)) FS.writeFile(`/vocab/${name}`, readFileSync(join(folder, name)));
FS.writeFile("/texts.json", readFileSync(texts));
let printed = "";
const decoder = new TextDecoder();
pyodide.setStdout({ write: (bytes) => { printed += decoder.decode(bytes); return bytes.length; } });
pyodide.runPython(`
import runpy, sys
sys.argv = ["same-ids", "/vocab", "/texts.json"]
runpy.run_path("/clone/.ci/same-ids", run_name="__main__")
sys.stdout.flush()`);
process.stdout.write(printed);
