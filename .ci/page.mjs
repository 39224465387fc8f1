// The lesson page in a real browser: node .ci/page.mjs REFERENCE NODE_MODULES [--shots FOLDER]
// Serves .docs/, tokembed.py and the pinned npm Pyodide on 127.0.0.1, opens
// .docs/index.html in Debian's headless Chromium for each URL state listed in
// REFERENCE/states.json, and checks that the page shows, byte for byte, what
// `python3 tokembed.py` printed for the same arguments (REFERENCE/page-N.out),
// the figure it drew (page-N.svg), or the one-line error (page-N.err). Then it
// plants a wrong expectation and checks that the comparison catches it.
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";

const [reference, modules, ...rest] = process.argv.slice(2);
const shots = rest[0] === "--shots" ? rest[1] : null;
const fail = (message) => { console.log(`FAIL: the page ${message}`); process.exit(1); };
const { chromium } = await import(pathToFileURL(join(modules, "playwright-core", "index.mjs")).href);

const TYPES = { ".html": "text/html; charset=utf-8", ".mjs": "text/javascript",
                ".js": "text/javascript", ".wasm": "application/wasm", ".py": "text/plain",
                ".json": "application/json", ".zip": "application/zip", ".svg": "image/svg+xml" };
const roots = { "/pyodide/": join(modules, "pyodide") + "/", "/": process.cwd() + "/" };
const server = createServer((request, response) => {
  const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
  const [prefix, folder] = Object.entries(roots).find(([p]) => path.startsWith(p));
  const file = normalize(join(folder, path.slice(prefix.length)));
  if (!file.startsWith(folder) || !existsSync(file) || statSync(file).isDirectory()) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
  response.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage();
const outside = [];  // every request that leaves 127.0.0.1: there must be none
page.on("request", (request) => {
  if (!request.url().startsWith(base)) outside.push(request.url());
});

async function open(query) {
  const started = Date.now();
  const separator = query ? "&" : "";
  await page.goto(`${base}/.docs/index.html?${query}${separator}pyodide=${base}/pyodide/`);
  await page.waitForSelector("body[data-ready=yes]", { timeout: 120000 });
  return Date.now() - started;
}

const read = (name) => readFileSync(join(reference, name), "utf8");
const states = JSON.parse(read("states.json"));
const mismatch = (what, shown, expected) => shown === expected ? null :
  `${what} differs:\n--- shown\n${shown}\n--- expected\n${expected}`;
let first = null;
for (const [k, state] of states.entries()) {
  const took = await open(state.query);
  first ??= took;
  const shown = await page.evaluate(() => ({
    output: document.getElementById("output").textContent,
    command: document.getElementById("command").textContent,
    figure: document.getElementById("figure").dataset.svg ?? "",
    source: document.getElementById("source").textContent,
    copyCommand: document.getElementById("copy-command").textContent,
    url: location.search,
  }));
  const problems = [
    mismatch("the command", shown.command, state.command),
    mismatch("the output", shown.output,
             existsSync(join(reference, `page-${k}.err`)) ? read(`page-${k}.err`)
                                                          : read(`page-${k}.out`)),
    mismatch("the figure", shown.figure,
             existsSync(join(reference, `page-${k}.svg`)) ? read(`page-${k}.svg`) : ""),
    state.copy ? mismatch("the copy panel", shown.source, read(`page-${k}.copy`)) : null,
    state.copy ? mismatch("the copy command", shown.copyCommand, state.copy) : null,
    shown.url.includes(state.query.split("&")[0]) ? null : `lost its state: ${shown.url}`,
  ].filter(Boolean);
  if (problems.length) fail(`at ?${state.query}: ${problems.join("\n")}`);
}

// The check must be able to fail: plant a wrong expectation, and see it caught.
await open(states[0].query);
const output = await page.evaluate(() => document.getElementById("output").textContent);
if (!mismatch("the output", output, read("page-0.out").replace("3, 1, 4", "3, 1, 5"))) {
  fail("check cannot fail: a planted wrong expectation passed");
}
// A control changed updates the URL, and Pyodide is not loaded again.
await page.selectOption("#view", "table");
const after = await page.evaluate(() => [location.search,
  document.getElementById("output").textContent, performance.getEntriesByType("navigation").length]);
if (!after[0].includes("view=table") || !after[1].startsWith("token ids: [3, 1, 4]\nid")) {
  fail(`did not follow a changed control: ${after[0]}`);
}
if (outside.length) fail(`sent requests away from this machine: ${outside.join(", ")}`);

if (shots) {  // for people to look at; not a check
  for (const [name, width, height] of [["phone-375", 375, 812], ["slide-1080p", 1920, 1080]]) {
    await page.setViewportSize({ width, height });
    await open("text=my+order+order&view=table&seed=7");
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  }
}
await browser.close();
server.close();
console.log(`the page in Chromium: ${states.length} URL states, the same bytes as python3 ` +
            `(first output after ${(first / 1000).toFixed(1)} s, Pyodide served here)`);
