// Serving the lesson page the way README.md's "In a browser" says, for .ci/page.mjs
// and .ci/page-shots.mjs: Pyodide's npm folder linked in as .docs/pyodide (which
// .docs/.gitignore keeps out of git), the clone served by `python3 -m http.server`,
// and the page opened with ?pyodide=pyodide/. Also: Debian's headless Chromium.
import { spawn } from "node:child_process";
import { existsSync, lstatSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const SERVE = "python3 -m http.server 8000 --bind 127.0.0.1";  // as README.md says

// Link NODE_MODULES/pyodide in as .docs/pyodide unless a copy is there; undo at exit.
export function linkPyodide(clone, modules) {
  const link = join(clone, ".docs", "pyodide");
  if (existsSync(join(link, "pyodide.mjs"))) return;
  if (existsSync(link) || isLink(link)) unlinkSync(link);
  symlinkSync(join(modules, "pyodide"), link);
  process.on("exit", () => isLink(link) && unlinkSync(link));
}

const isLink = (path) => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

// python3 -m http.server on a free port of 127.0.0.1 (or of host), serving folder:
// {base, requests, close}
export async function pythonServer(folder, host = "127.0.0.1") {
  const child = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", host,
                                  "--directory", folder], { stdio: ["ignore", "pipe", "pipe"] });
  const requests = [];  // "GET /path", in order
  child.stderr.on("data", (chunk) => {
    for (const line of String(chunk).split("\n")) {
      const found = /"([A-Z]+ \S+) HTTP/.exec(line);
      if (found) requests.push(found[1]);
    }
  });
  const port = await new Promise((resolve, reject) => {
    let said = "";
    child.stdout.on("data", (chunk) => {
      said += chunk;
      const found = /port (\d+)/.exec(said);
      if (found) resolve(Number(found[1]));
    });
    child.on("exit", (code) => reject(new Error(`http.server exited with ${code}: ${said}`)));
    setTimeout(() => reject(new Error("http.server did not start in 20 s")), 20000);
  });
  process.on("exit", () => child.kill());
  return { base: `http://${host}:${port}`, requests, close: () => child.kill() };
}

export async function launch(modules) {
  const { chromium } = await import(
    pathToFileURL(join(modules, "playwright-core", "index.mjs")).href);
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update",
           "--disable-sync"],
  });
}

// Wait until the page has shown all it will: Python's answers, or a failure.
export async function settled(page, timeout = 120000) {
  await page.waitForFunction(() => document.body.dataset.idle === "yes" &&
    (document.body.dataset.ready === "yes" || window.tokembedPage?.failed), null,
    { timeout, polling: 50 });
}
