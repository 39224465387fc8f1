// The lesson page's main thread: it reads the state from the URL, builds the
// command line, and shows what Python (in worker.js, a Web Worker) printed for it.
// Nothing here runs Python or waits for it, so the page never freezes.
"use strict";

// The Pyodide that CI pins (.ci/run), from jsDelivr's copy of the npm package.
const PYODIDE = "https://cdn.jsdelivr.net/npm/pyodide@314.0.7/";
const SERVE = "python3 -m http.server 8000 --bind 127.0.0.1";  // the README's commands
const VERSION = /@([^/]+)\/$/.exec(PYODIDE)[1];  // 314.0.7
const OFFLINE = `npm install --prefix /tmp/pyodide pyodide@${VERSION}\n` +
                "ln -s /tmp/pyodide/node_modules/pyodide .docs/pyodide\n" + SERVE;
const OPTIONS = [["seed", "--seed"], ["d_model", "--d-model"], ["padding", "--padding-idx"],
                 ["merges", "--merges"]];  // the page's field, the CLI's flag
const FIELDS = ["text", "view", ...OPTIONS.map(([name]) => name), "copy", "kind"];
const VOCAB_OF = { "--search": "corpus", "--params": null };  // else the lesson's, for WORDS
const LESSON_HELP = "the lesson's own view: each token's ID, then its row of the table";
const DEBOUNCE_MS = 200;  // a key held down on the View select runs only where it stops

const $ = (id) => document.getElementById(id);
const page = {  // what the page shows and knows; CI reads it
  takes: JSON.parse($("views").textContent),  // until Python says, the HTML's copy
  help: {}, vocab: [...document.querySelectorAll("#vocab button")].map((b) => b.value),
  corpus: [], text: "refund my order", names: [], python: null, failed: null,
  pyodide: PYODIDE, shown: { output: null, figure: "", source: null }, timings: {},
  events: [],  // [what, ms since navigation, argv], in the order they happened
  runs: [],  // each command line sent to Python, in order
};
window.tokembedPage = page;
const mark = (what, argv = null) => {
  page.events.push([what, performance.now(), argv]);
  performance.mark(`tokembed:${what}`);
};

// --- the state, in the URL ------------------------------------------------------------
const flagOf = (view) => (view ? `--${view}` : "");
const viewOf = (flag) => flag.replace(/^--/, "");

function readState() {
  const query = new URLSearchParams(location.search);
  for (const name of ["text", ...OPTIONS.map(([n]) => n)]) $(name).value = query.get(name) ?? "";
  const flag = flagOf(query.get("view") ?? "");
  const known = [...$("view").options].some((option) => option.value === flag);
  $("view").value = known ? flag : "";
  const kind = ["checked", "exercise"].includes(query.get("kind")) ? query.get("kind") : "lesson";
  document.querySelector(`input[name=kind][value=${kind}]`).checked = true;
  page.chosenCopy = query.get("copy");
  return known ? null : `This page has no view "${query.get("view")}": it shows the lesson's.`;
}

function writeState() {
  const query = new URLSearchParams();
  for (const name of FIELDS) {
    let value = name === "kind" ? document.querySelector("input[name=kind]:checked").value
                                : $(name).value;
    if (name === "view") value = viewOf(value);
    if (name === "copy") value = page.names.length ? value : page.chosenCopy ?? "";
    if (name === "copy" && value === "lookup") value = "";  // the copy panel's default
    if (value && !(name === "kind" && value === "lesson")) query.set(name, value);
  }
  if (page.pyodide !== PYODIDE) query.set("pyodide", page.pyodideAsGiven);
  history.replaceState(null, "", `${location.pathname}${query.size ? "?" + query : ""}`);
}

// Where Pyodide may come from: the pinned CDN folder, or a folder on this very site.
// Anything else (another origin, //host, data:, blob:, javascript:) is never imported.
function pyodideFolder() {
  const given = new URLSearchParams(location.search).getAll("pyodide");
  if (!given.length) return { folder: PYODIDE };
  let url = null;
  try {
    url = new URL(given[0], location.href);  // the browser's own reading of it
  } catch {
    // not a URL at all: refused below
  }
  const here = url && /^https?:$/.test(url.protocol) && url.origin === location.origin;
  if (given.length === 1 && (here || url?.href === PYODIDE)) {
    return { folder: `${url.origin}${url.pathname.replace(/\/?$/, "/")}`, asGiven: given[0] };
  }
  return { refused: given.join(", ") };
}

// --- the command line each state stands for ------------------------------------------
function viewTakes(flag) {
  return page.takes[flag] ?? [];
}

function argvOf(withFigure = false) {
  const flag = $("view").value, takes = viewTakes(flag);
  const args = flag ? [flag] : [];
  for (const [name, option] of OPTIONS) {
    const value = $(name).value.trim();
    if (value !== "" && takes.includes(option)) args.push(option, value);
  }
  if (withFigure) args.push("--svg", "-");
  const text = $("text").value;
  const words = takes.includes("TEXT") ? (text === "" ? [] : [text])  // spaces kept
    : takes.includes("WORDS") ? text.split(/\s+/).filter(Boolean) : [];
  if (words.length) args.push("--", ...words);  // after --, every word is text
  return args;
}

function shell(args) {  // quoted for a POSIX shell
  const quote = (arg) => /^[\w.,+\-=/:@%]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
  return ["python3", "tokembed.py", ...args.map(quote)].join(" ");
}

// --- talking to Python ------------------------------------------------------------------
// One request at a time goes to the worker. A newer request for the same slot
// replaces one that waits, and the answer to an older one is not shown.
let worker = null, busy = null, serial = 0;
const waiting = { output: null, figure: null, source: null };  // in this order of need
const latest = { output: null, figure: null, source: null };
const answers = new Map();  // argv as JSON -> the answer: every view prints the same again

function ask(slot, argv, then) {
  const key = JSON.stringify(argv);
  const request = { slot, argv, key, then, id: ++serial };
  latest[slot] = request.id;
  if (answers.has(key)) {
    waiting[slot] = null;
    then(answers.get(key), request);
    settle();
    return;
  }
  waiting[slot] = request;
  pump();
}

function pump() {
  if (busy || !page.python) {
    settle();
    return;
  }
  const slot = Object.keys(waiting).find((name) => waiting[name]);
  if (!slot) {
    settle();
    return;
  }
  busy = waiting[slot];
  waiting[slot] = null;
  worker.postMessage({ kind: "run", id: busy.id, argv: busy.argv });
  page.runs.push(busy.argv);
  settle();
}

function answered(message) {
  const request = busy;
  busy = null;
  if (request && request.id === message.id) {
    const answer = { status: message.status, out: message.out, err: message.err };
    if (answers.size > 200) answers.delete(answers.keys().next().value);
    answers.set(request.key, answer);
    if (latest[request.slot] === request.id) request.then(answer, request);
  }
  pump();
}

function settle() {  // CI waits for the page to be idle; people see what still runs
  const idle = page.python && !busy && !show.timer && !Object.values(waiting).some(Boolean);
  document.body.dataset.idle = idle || page.failed ? "yes" : "no";
  const running = busy?.slot === "output" ? busy : waiting.output;
  $("output").classList.toggle("stale", Boolean(running) && !page.failed);
  $("figure").classList.toggle("stale", Boolean(running || waiting.figure) && !page.failed);
  clearTimeout(settle.slow);  // a quick answer needs no word; a slow one says what runs
  if (page.python && running) {
    settle.slow = setTimeout(() => say(`Running ${shell(running.argv)} …`, "busy"), 300);
  } else if (page.python && !page.failed && idle) {
    say(page.readyText, "ready");
  }
}

function say(message, state = "") {
  if ($("status").textContent === message && $("status").dataset.state === state) return;
  $("status").textContent = message;
  $("status").dataset.state = state;
}

// --- showing what Python printed ---------------------------------------------------------
function show() {
  const flag = $("view").value, takes = viewTakes(flag);
  for (const [name, option] of OPTIONS) {
    enable(name, takes.includes(option), option);  // and no view takes it: not shown
    $(name).closest(".field").hidden = !Object.values(page.takes).some((t) => t.includes(option));
  }
  enable("text", takes.includes("WORDS") || takes.includes("TEXT"), "WORDS");
  $("text-label").textContent = takes.includes("TEXT") ? "Text, spaces kept" : "Text";
  const given = /\(default: ([^)]+)\)/.exec(page.help[flag] ?? "");  // --params says its own
  $("text-default").textContent = `(empty: ${given ? given[1] : `the lesson's “${page.text}”`})`;
  $("view-help").textContent = flag ? page.help[flag] ?? "" : LESSON_HELP;
  showVocab(takes);
  const args = argvOf();
  $("command").textContent = shell(args);
  writeState();
  if (!page.python) {  // until Python runs, the lesson's own output, or a note
    if (args.length === 0) showOutput({ status: 0, out: page.lesson }, args);
    else wait($("output"), page.failed ? "Python could not start here: run the command " +
      "above on your machine." : "This view shows here once Python has loaded.");
  }
  if (page.failed) return;
  clearTimeout(show.timer);
  const figure = takes.includes("--svg") ? argvOf(true) : null;
  const run = () => {
    show.timer = null;
    ask("output", args, (answer, request) => shown(answer, request, figure));
  };
  if (show.now || !page.python) run();
  else show.timer = setTimeout(run, DEBOUNCE_MS);
  show.now = false;
  settle();
}

function shown(answer, request, figure) {  // the text first; then the figure, the copy panel
  showOutput(answer, request.argv);
  if (answer.status === 0 && figure) {
    ask("figure", figure, (drawn) => showFigure(drawn.status === 0 ? drawn.out : ""));
  } else {
    waiting.figure = null;
    latest.figure = null;
    showFigure("");
  }
  if (page.sourcePending) {  // the copy panel fills after the first output, not before
    page.sourcePending = false;
    showSource();
  }
}

function wait(box, why) {  // an empty box with a note that is plainly not a value
  box.replaceChildren();
  box.classList.add("waiting");
  box.classList.remove("error");
  box.dataset.why = why;
  if (box.id === "output") page.shown.output = null;
}

function enable(name, on, option) {
  const field = $(name);
  field.disabled = !on;
  const note = $(`${name}-note`);
  if (note) {  // say why a control is off: "--train takes no --d-model"
    const view = $("view").value, code = (text) => Object.assign(
      document.createElement("code"), { textContent: text });
    note.replaceChildren(...on ? [] : [view ? code(view) : "the lesson's view", " takes no ",
                                       option === "WORDS" ? "text" : code(option)]);
  }
}

function showOutput({ status, out, err }, argv) {
  const text = status === 0 ? out : err;
  const pre = $("output");
  if (!page.python) {  // the HTML's own copy of the lesson's output, until Python runs
    pre.classList.remove("waiting", "error");
    pre.replaceChildren(...markUp(page.lesson, argv));
    return;
  }
  pre.classList.remove("waiting");
  pre.classList.toggle("error", status !== 0);
  page.shown.output = text;
  pre.replaceChildren(...markUp(text, argv));
  unlight();
  mark("output", argv);
  if (status === 0) say(page.readyText, "ready");
  else if (status === -1) say("tokembed.py failed inside the page (a bug: please report it).", "error");
  $("outcome").textContent = status === 0 ? "" : `tokembed.py refused it (exit status ${status}):`;
}

function showFigure(svg) {
  page.shown.figure = svg;
  const box = $("figure");
  box.innerHTML = svg;
  const drawn = box.querySelector("svg");
  if (drawn) {
    uniqueIds(drawn);
    drawn.style.setProperty("--w", drawn.viewBox.baseVal.width);
    drawn.removeAttribute("width");
    drawn.removeAttribute("height");
    mark("figure");
  }
  box.closest(".scroller").hidden = !drawn;
  cue(box.closest(".scroller"));
}

// Two figures in one page must not share an element id: rename any id taken already.
let renamed = 0;
page.uniqueIds = (svg) => uniqueIds(svg);
function uniqueIds(svg) {
  const taken = [...svg.querySelectorAll("[id]")].filter((element) =>
    document.querySelectorAll(`[id="${CSS.escape(element.id)}"]`).length > 1);
  if (!taken.length) return;
  renamed += 1;
  for (const element of taken) {
    const old = element.id, fresh = `page${renamed}-${old}`;
    element.id = fresh;
    for (const user of [svg, ...svg.querySelectorAll("*")]) {
      for (const attribute of [...user.attributes]) {
        const value = attribute.value;
        const swapped = value.split(`url(#${old})`).join(`url(#${fresh})`)
          .split(/(\s+)/).map((word) => word === old && attribute.name.startsWith("aria-")
            ? fresh : word).join("");
        if (swapped !== value) user.setAttribute(attribute.name, swapped);
      }
    }
  }
}

// --- linked highlighting: a token, its ID, its line and its row of the figure ----------
// The lesson's views print "token ids: [...]" and then one line (or block) per token or
// per row. Marked up here, the text stays byte for byte what Python printed.
function markUp(text, argv) {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const words = textWords(argv);
  let ids = null, row = null;
  return lines.map((line) => {
    const span = document.createElement("span");
    span.className = "line";
    const found = /^token ids: \[([\d, ]*)\]/.exec(line);
    if (found && ids === null) {
      const listed = found[1].split(",").filter((n) => n.trim()).map(Number);
      const fits = words && listed.length === words.length &&
        listed.every((id, k) => page.vocab[id] === words[k]);
      ids = fits ? listed : [];
      page.ids = ids;
      if (fits) {
        fill(span, line, /(\d+)/g, (number, k) => idSpan(number, ids[k], k));
        return span;
      }
    }
    if (ids && ids.length) {
      row = rowOf(line, ids, words, row);
      if (row !== null) {
        span.dataset.row = row;
        fill(span, line, /^(\s*)(\d+)?(\s*)(\S+)|\brow (\d+)\b/g, (piece, k, match) =>
          tokenPieces(piece, match, row));
        return span;
      }
    }
    span.textContent = line;
    return span;
  });
}

function textWords(argv) {  // the words a lesson view looked up
  const flag = argv[0] in page.takes ? argv[0] : "";
  if (flag in VOCAB_OF || !viewTakes(flag).includes("WORDS")) return null;
  const at = argv.indexOf("--");
  return at < 0 ? page.text.split(" ") : argv.slice(at + 1);
}

function rowOf(line, ids, words, previous) {
  if (/^\s/.test(line)) return line.trim() ? previous : null;  // a block's next line
  let match = /^(\d+)\s+(\S+)\s/.exec(line);
  if (match) {
    const n = Number(match[1]);
    if (page.vocab[n] === match[2]) return n;  // a table's row: "4   order   [...]"
    if (words[n] === match[2]) return ids[n];  // a position: "1   order    token row"
  }
  match = /^(\S+)\s/.exec(line);
  if (match && words.includes(match[1]) && page.vocab.includes(match[1])) {
    return page.vocab.indexOf(match[1]);  // a token's line: "refund  -> row 3: [...]"
  }
  return null;
}

function fill(span, line, pattern, make) {  // text, with each match made into elements
  let at = 0, k = 0;
  for (const match of line.matchAll(pattern)) {
    span.append(line.slice(at, match.index), ...[make(match[0], k++, match)].flat());
    at = match.index + match[0].length;
  }
  span.append(line.slice(at));
}

function idSpan(text, row, position) {
  const span = document.createElement("span");
  span.className = "id";
  span.dataset.row = row;
  span.dataset.position = position;
  span.textContent = text;
  return span;
}

function tokenPieces(piece, match, row) {
  if (match[5] !== undefined) {  // "row 3"
    return Number(match[5]) === row ? ["row ", idSpan(match[5], row)] : [piece];
  }
  const [, lead, number, gap, word] = match;
  if (word !== page.vocab[row]) return [piece];
  const token = document.createElement("span");
  token.className = "token";
  token.tabIndex = 0;
  token.dataset.row = row;
  token.textContent = word;
  const parts = [lead];
  if (number !== undefined) {
    parts.push(Number(number) === row ? idSpan(number, row) : number);
  }
  return [...parts, gap, token];
}

let pinned = null;
function light(row) {
  for (const element of document.querySelectorAll(".lit")) element.classList.remove("lit");
  if (row === null) {
    document.body.classList.remove("lighting");
    $("lit-note").textContent = "";
    return;
  }
  const lit = document.querySelectorAll(`#output [data-row="${row}"], #figure [data-row="${row}"]`);
  for (const element of lit) element.classList.add("lit");
  document.body.classList.add("lighting");
  const word = page.vocab[row] ?? "?";
  const at = (page.ids ?? []).flatMap((id, k) => (id === row ? [k] : []));
  const where = at.length ? `the text has it at position${at.length > 1 ? "s" : ""} ${at.join(", ")}`
                          : "the text does not use it";
  const figure = $("figure").querySelector(`[data-row="${row}"]`) ? " and in the figure" : "";
  $("lit-note").textContent = `“${word}” is token ID ${row}: row ${row} of the table, ` +
    `lit in the output${figure}; ${where}.`;
}
const unlight = () => {
  pinned = null;
  light(null);
};
const rowAt = (target) => target?.closest?.("[data-row]")?.dataset.row ?? null;

function linkRows() {
  for (const box of [$("output"), $("figure")]) {
    box.addEventListener("pointerover", (event) => {
      if (event.pointerType !== "touch" && pinned === null && rowAt(event.target) !== null) {
        light(Number(rowAt(event.target)));
      }
    });
    box.addEventListener("pointerout", (event) => {
      if (event.pointerType !== "touch" && pinned === null &&
          rowAt(event.relatedTarget) === null) light(null);
    });
    box.addEventListener("click", (event) => {  // a tap, on a phone
      const row = rowAt(event.target);
      if (row === null) return;
      pinned = pinned === Number(row) ? null : Number(row);
      light(pinned);
      event.stopPropagation();
    });
  }
  $("output").addEventListener("focusin", (event) => {
    if (rowAt(event.target) !== null) light(Number(rowAt(event.target)));
  });
  $("output").addEventListener("focusout", (event) => {
    if (pinned === null && rowAt(event.relatedTarget) === null) light(null);
  });
  document.addEventListener("click", () => pinned !== null && unlight());
  document.addEventListener("keydown", (event) => event.key === "Escape" && unlight());
}

// --- the vocabulary: each word a button that adds it to the text ----------------------
function showVocab(takes) {
  const flag = $("view").value;
  const kind = flag in VOCAB_OF ? VOCAB_OF[flag] : takes.includes("WORDS") ? "lesson" : null;
  const words = kind === "corpus" ? page.corpus : kind === "lesson" ? page.vocab : [];
  const box = $("vocab");
  box.hidden = !words.length;
  $("vocab-label").textContent = kind === "corpus"
    ? `Add a word of the training sentences (${words.length})` : "Add a word";
  if (box.dataset.kind === kind && box.dataset.count === String(words.length)) return;
  if (box.dataset.kind !== kind) box.open = kind === "lesson";  // 6 words open, 56 folded
  box.dataset.kind = kind;
  box.dataset.count = words.length;
  const buttons = words.map((word) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "word";
    button.value = word;
    button.textContent = word;
    return button;
  });
  box.querySelector(".words").replaceChildren(...buttons);
}

function addWord(word) {
  const text = $("text").value.replace(/\s+$/, "");
  $("text").value = text ? `${text} ${word}` : word;
  $("added").textContent = `Added ${word}: the text is now "${$("text").value}".`;
  show.now = true;
  show();
}

// --- the copy panel ------------------------------------------------------------------------
function copyArgv() {
  const kind = document.querySelector("input[name=kind]:checked").value;
  const name = $("copy").value || page.chosenCopy || "lookup";
  return kind === "exercise" ? ["--exercise", name]
    : ["--copy", name, ...(kind === "checked" ? ["--checked"] : [])];
}

function showSource() {
  const args = copyArgv();
  $("copy-command").textContent = shell(args);
  $("copied").textContent = "";
  writeState();
  if (!page.names.length) return;
  ask("source", args, ({ status, out, err }) => {
    page.shown.source = status === 0 ? out : err;
    $("source").textContent = page.shown.source;
    $("source").classList.remove("waiting");
    $("source").classList.toggle("error", status !== 0);
    $("clipboard").disabled = status !== 0;
    mark("source");
    cue($("source").closest(".scroller"));
  });
}

// A box wider than the screen says so, in words and with a shadow at the cut edge.
function cue(box) {
  if (!box) return;
  const more = box.scrollWidth > box.clientWidth + 1;
  box.classList.toggle("more", more);
  const note = box.nextElementSibling?.classList.contains("more-note") && box.nextElementSibling;
  if (note) note.hidden = !more;
}

// --- loading --------------------------------------------------------------------------------
function fail(what, text) {
  page.failed = what;
  clearTimeout(watchdog);
  worker?.terminate();
  say(text, "error");
  $("output").classList.remove("stale");
  if (page.shown.output === null) {
    wait($("output"), "Python could not start here: run the command above on your machine.");
  }
  wait($("source"), "The functions to copy come from tokembed.py, which did not load here.");
  $("copy").disabled = true;
  settle();
  mark("failed");
}

function help(lines) {  // a failure's message, with what to run
  const box = $("help");
  box.replaceChildren(...lines.map((line) => {
    const p = document.createElement(line.code ? "pre" : "p");
    p.textContent = line.code ?? line;
    return p;
  }));
  box.hidden = false;
}

function failed({ what, url, detail }) {
  if (what === "tokembed.py") {
    fail(what, `tokembed.py could not be fetched from ${url}: ${detail}.`);
    help(["The page needs tokembed.py from the folder above .docs/. Serve the whole " +
          "clone, not only .docs/: in the clone, run", { code: SERVE },
          "and open http://127.0.0.1:8000/.docs/index.html."]);
    return;
  }
  fail(what, `Pyodide (Python for the browser) could not be loaded from ${url}: ${detail}.`);
  help(page.pyodide === PYODIDE
    ? ["This page loads Pyodide from jsDelivr, which needs the network. For a lesson " +
       `offline, put Pyodide ${VERSION} on the same server as the page (see README.md, ` +
       "“In a browser”): in the clone, run",
       { code: OFFLINE }, "and open http://127.0.0.1:8000/.docs/index.html?pyodide=pyodide/"]
    : [`Is Pyodide ${VERSION} in that folder of this site? Its files (pyodide.mjs, ` +
       "pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json) must " +
       "be served by the same server as the page: in the clone, run",
       { code: OFFLINE }, "and open http://127.0.0.1:8000/.docs/index.html?pyodide=pyodide/"]);
}

function progress({ step, text, bytes }) {
  const mb = (bytes / 1e6).toFixed(1);
  page.timings[step === "bytes" ? "bytes" : `${step}:${text}`] ??= performance.now();
  if (step === "source") page.sourceArrived = true;
  if (step === "python") say(`Python has started; importing tokembed.py …`, "busy");
  else say(`Loading Python (Pyodide ${VERSION}, about 12 MB, once): ${mb} MB so far` +
           (page.sourceArrived ? "; tokembed.py has arrived …" : " …"), "busy");
}

function ready(info) {
  page.python = info;
  page.takes = Object.fromEntries(info.views);
  page.help = Object.fromEntries(info.help);
  page.vocab = info.vocab;
  page.corpus = info.corpus;
  page.text = info.text;
  page.names = info.names;
  page.readyText = `Ready: tokembed.py ${info.version}, on Python ${info.python} in ` +
                   "your browser. Change anything above.";
  mark("ready");
  $("vocab").dataset.count = "";  // redrawn from Python's own VOCAB
  $("copy").replaceChildren(...info.names.map((name) => new Option(name, name)));
  $("copy").value = info.names.includes(page.chosenCopy) ? page.chosenCopy : "lookup";
  $("copy").disabled = false;
  for (const radio of document.querySelectorAll("input[name=kind]")) radio.disabled = false;
  document.body.dataset.ready = "yes";
  show.now = true;
  show();  // the view first, and the figure and the copy panel after it
}

// Loading that sends no news for this long has failed. The worker gives up on a
// fetch after 30 s, and says which; this catches the rest, a little later.
const STALL_MS = 40_000;
let watchdog = null;
function awake() {
  clearTimeout(watchdog);
  if (page.python || page.failed) return;
  watchdog = setTimeout(() => failed({ what: "Pyodide", url: page.pyodide,
    detail: `the worker sent no news for ${STALL_MS / 1000} s` }), STALL_MS);
}

function start() {
  mark("script");
  $("stalled").remove();  // the HTML's notice for a page whose script never ran
  page.lesson = $("output").textContent;  // the HTML's copy of the lesson's output
  const problem = readState();
  wait($("source"), "The copy panel fills once Python has loaded.");
  wire();
  const chosen = pyodideFolder();
  page.pyodide = chosen.folder ?? PYODIDE;
  page.pyodideAsGiven = chosen.asGiven;
  page.sourcePending = true;
  show.now = true;
  show();
  showSource();
  if (problem) $("view-help").textContent = problem;
  if (location.protocol === "file:") {
    fail("file", "This page is open as a file, and a browser starts no Web Worker from " +
                 "a file, so Python cannot run here.");
    help(["Serve the clone's folder instead: in the clone, run", { code: SERVE },
          "and open http://127.0.0.1:8000/.docs/index.html."]);
    return;
  }
  if (chosen.refused !== undefined) {
    fail("refused", `This link asks for Pyodide from “${chosen.refused}”, which is neither ` +
                    "this site nor the pinned jsDelivr copy, so the page did not load it: " +
                    "only this site's code runs here.");
    const query = new URLSearchParams(location.search);
    query.delete("pyodide");
    const link = document.createElement("a");
    link.href = `${location.pathname}${query.size ? "?" + query : ""}`;
    link.textContent = "Open the same view with Pyodide from jsDelivr";
    help(["For a lesson offline, serve Pyodide from the page's own server: in the clone, run",
          { code: OFFLINE }, "and open http://127.0.0.1:8000/.docs/index.html?pyodide=pyodide/ " +
          "(see README.md, “In a browser”)."]);
    $("help").prepend(link);
    writeState();
    return;
  }
  say(`Loading Python (Pyodide ${VERSION}, about 12 MB, once) and tokembed.py, side by side …`,
      "busy");
  try {
    // A blob: worker takes this page's Content-Security-Policy; worker.js from this
    // site is all it imports, and the policy then governs every script it loads.
    const script = new URL("worker.js", location.href).href;
    const boot = new Blob([`import ${JSON.stringify(script)};`], { type: "text/javascript" });
    worker = new Worker(URL.createObjectURL(boot), { type: "module" });
  } catch (error) {
    failed({ what: "Pyodide", url: "worker.js", detail: error.message });
    return;
  }
  worker.onmessage = ({ data }) => {
    awake();
    if (page.failed) return;
    if (data.kind === "progress") progress(data);
    else if (data.kind === "ready") ready(data.info);
    else if (data.kind === "failed") failed(data);
    else if (data.kind === "result") answered(data);
  };
  worker.onerror = (event) => {
    event.preventDefault?.();
    failed({ what: "Pyodide", url: new URL("worker.js", location.href).href,
             detail: `the page's worker did not start (${event.message || "no reason given"})` });
  };
  worker.postMessage({ kind: "start", pyodide: page.pyodide,
                       source: new URL("../tokembed.py", location.href).href });
  awake();
  mark("worker");
}

function wire() {
  for (const name of ["text", ...OPTIONS.map(([n]) => n)]) $(name).addEventListener("input", show);
  $("view").addEventListener("change", show);
  for (const form of document.querySelectorAll("form")) {
    form.addEventListener("submit", (event) => event.preventDefault());
  }
  $("vocab").addEventListener("click", (event) => {
    if (event.target.matches("button.word")) addWord(event.target.value);
  });
  $("copy").addEventListener("change", showSource);
  for (const radio of document.querySelectorAll("input[name=kind]")) {
    radio.addEventListener("change", showSource);
  }
  $("clipboard").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("source").textContent);
      $("copied").textContent = "Copied.";
    } catch {
      $("copied").textContent = "The browser did not allow it: select the text and copy it.";
    }
  });
  linkRows();
  addEventListener("resize", () => {
    for (const box of document.querySelectorAll(".scroller")) cue(box);
  });
}

start();
