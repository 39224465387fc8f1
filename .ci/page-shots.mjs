// Screenshots of the lesson page, for people to look at (not a check):
//   node .ci/page-shots.mjs NODE_MODULES FOLDER
// Run from the clone; FOLDER must be outside it. For each width (375, 768, 1366,
// 1920) it shoots the lesson, --table, --positions, --tokens with an emoji, --trace,
// an error, an answer too long to show whole, the copy panel and --languages with a
// text of its own and its chart (counting in the real vocabularies, if .docs/vocab/
// has them), in light mode; then,
// at 375 and 1920, the lesson in dark mode, the page while Python loads, and a
// token lit up; at 1366 and 1920, the page with no network (jsDelivr not answered);
// and a slide at 200% zoom (960 x 540 at 2x). Files:
// FOLDER/WIDTH-NAME.png.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { launch, linkPyodide, pythonServer, settled } from "./page-serve.mjs";

const [modules, folder] = process.argv.slice(2);
const clone = process.cwd();
if (!folder || resolve(folder).startsWith(clone + "/")) {
  console.log("usage: node .ci/page-shots.mjs NODE_MODULES FOLDER (FOLDER outside the clone)");
  process.exit(2);
}
mkdirSync(folder, { recursive: true });
linkPyodide(clone, modules);
const site = await pythonServer(clone);
const browser = await launch(modules);
const at = (query) => `${site.base}/.docs/index.html?${query}${query ? "&" : ""}pyodide=pyodide/`;
const SHOTS = [
  ["lesson", ""], ["table", "view=table&text=my+order+order&seed=7"],
  ["positions", "view=positions&text=my+order+order"], ["error", "text=Refund+my+order"],
  ["tokens", "view=tokens&text=refund+my+%F0%9F%98%89+order%0Aplease"],
  ["long", "view=table&d_model=16384"], ["copy", "copy=cosine&kind=exercise"],
  ["trace", "view=trace&text=caf%C3%A9+lately"],
  ["languages", "view=languages&text=O%C3%B9+est+ma+commande+%3F"],
];
const heights = { 375: 812, 768: 1024, 960: 540, 1366: 768, 1920: 1080 };

async function shoot(width, name, query, { scheme = "light", loading = false, lit = false,
                                          scale = 1, full = true, offline = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height: heights[width] },
    colorScheme: scheme, hasTouch: width < 800, isMobile: width < 800, deviceScaleFactor: scale });
  if (loading) {  // hold Python back, to see the page as it loads
    await context.route("**/pyodide.asm.wasm", () => {});
  }
  if (offline) await context.route("https://cdn.jsdelivr.net/**", (route) => route.abort());
  const page = await context.newPage();
  await page.goto(offline ? `${site.base}/.docs/index.html` : at(query));
  if (loading) await page.waitForTimeout(1500);
  else await settled(page);
  if (lit) await page.locator("#output .token").nth(2).focus();
  const path = join(folder, `${width}-${name}.png`);
  if (name === "copy") {
    await page.locator("#copy-heading").scrollIntoViewIfNeeded();
    await page.screenshot({ path });
  } else {
    await page.screenshot({ path, fullPage: full });
  }
  await context.close();
  return path;
}

for (const width of [375, 768, 1366, 1920]) {
  for (const [name, query] of SHOTS) console.log(await shoot(width, name, query));
}
for (const width of [375, 1920]) {
  console.log(await shoot(width, "lesson-dark", "view=table&text=my+order", { scheme: "dark" }));
  console.log(await shoot(width, "loading", "view=train", { loading: true }));
  console.log(await shoot(width, "lit", "view=table&text=my+order+order", { lit: true }));
  console.log(await shoot(width, "lit-dark", "", { lit: true, scheme: "dark" }));
}
for (const width of [1366, 1920]) {
  console.log(await shoot(width, "offline", "", { offline: true, full: false }));
}
for (const [name, query] of [["slide", "view=table&text=my+order+order"],
                             ["slide-tokens", "view=tokens&text=refund+my+order"]]) {
  console.log(await shoot(960, name, query, { scale: 2, full: false }));  // 1920 at 200%
}
await browser.close();
site.close();
process.exit(0);
