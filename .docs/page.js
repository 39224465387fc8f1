// The lesson page's main thread: it reads the state from the URL, builds the
// command line, and shows what Python (in worker.js, a Web Worker) printed for it.
// Nothing here runs Python or waits for it, and a long answer is shown a piece a
// frame, so the page never freezes.
"use strict";

// The Pyodide that CI pins (.ci/run), from jsDelivr's copy of the npm package.
const PYODIDE = "https://cdn.jsdelivr.net/npm/pyodide@314.0.7/";
const SERVE = "python3 -m http.server 8000 --bind 127.0.0.1";  // the README's commands
const VERSION = /@([^/]+)\/$/.exec(PYODIDE)[1];  // 314.0.7
const OFFLINE = `npm install --prefix /tmp/pyodide pyodide@${VERSION}\n` +
                "ln -s /tmp/pyodide/node_modules/pyodide .docs/pyodide\n" + SERVE;
const OPTIONS = [["seed", "--seed"], ["d_model", "--d-model"], ["padding", "--padding-idx"],
                 ["merges", "--merges"], ["vocab", "--vocab"]];  // a field, the CLI's flag
const FIELDS = ["text", "view", ...OPTIONS.map(([name]) => name), "copy", "kind"];
const VOCAB_OF = { "--search": "corpus", "--params": null };  // else the lesson's, for WORDS
const LESSON_HELP = "the lesson's own view: each token's ID, then its row of the table";
const READS_CACHE = ["--languages"];  // it counts in every real vocabulary the cache holds
// The views that print a token table of TEXT and its "token ids:" list: the page paints
// their tokens over the text, and links each to its row and its IDs (--trace's table has
// no row of an embedding table, only its tokens)
const PAINTS = { "--tokens": { rows: true }, "--trace": { rows: false } };
// What an empty text box stands for, where it is not the lesson's text: --trace traces
// one word; --languages adds no row of the learner's own
const EMPTY = { "--trace": "refund", "--languages": null };
const TABLES = ["--languages"];  // its rows are read across: never wrapped (see across())
const NO_ROWS = ["--seed", "--d-model"];  // --tokens --vocab shows no rows: it refuses these
const VOCAB_FOLDER = ".docs/vocab/";  // where a deployer puts the real vocabularies' files
const DEBOUNCE_MS = 200;  // a key held down on the View select runs only where it stops
const HOME = new URL(".", location.href).href;  // the page's own folder: all it trusts
// Limits (the page says so where a learner meets one):
const URL_MAX = 8_000;  // characters of the page's address: nginx and Apache take 8 KB
const FIELD_MAX = 100;  // characters of a number's field in the address
const SHOW_CHARS = 400_000;  // what the output box shows, at most: the rest is saved
const SHOW_LINES = 6_000;
const MARK_MAX = 4_000;  // a longer line is shown plain, without linked tokens
const BLOCK = 50;  // lines of the output the browser lays out together
const STRIP_MAX = 1_000;  // tokens painted over the text
const COMMAND_SHOWN = 1_500;  // characters of a long command shown; Copy takes it all
const BOX_MAX = 20_000;  // characters the text box holds to edit; a longer text is run whole
const RUN_LIMIT_MS = 60_000;  // a view that runs longer is stopped, and Python restarted
const SILENT_MS = 60_000;  // loading fails after this long without a word from the worker,
const QUIET_MS = 300_000;  // or this long in a step that runs without a word (Python's start),
const STUCK_MS = 150_000;  // or this long without a byte or a step, though it answers

const $ = (id) => document.getElementById(id);
const page = {  // what the page shows and knows; CI reads it
  takes: JSON.parse($("views").textContent),  // until Python says, the HTML's copy
  help: {}, vocab: [...document.querySelectorAll("#words button")].map((b) => b.value),
  vocabularies: JSON.parse($("vocabularies").textContent),  // --vocab's names: their files
  models: {},  // each real vocabulary's model, once Python says
  corpus: [], text: "refund my order", names: [], python: null, failed: null,
  figureMax: 64, pyodide: PYODIDE, timings: {}, restarts: 0, watched: false,
  shown: { output: null, figure: "", source: null, command: "", tokens: null },
  events: [],  // [what, ms since navigation, argv], in the order they happened
  runs: [],  // each command line sent to Python, in order
};
window.tokembedPage = page;
const state = { text: "" };  // the text, as the link or the box gives it, line breaks kept
const mark = (what, argv = null) => {
  page.events.push([what, performance.now(), argv]);
  performance.mark(`tokembed:${what}`);
};
let numbers = null;  // made when first needed: the first takes a browser some 20 ms
const count = (n) => (numbers ??= new Intl.NumberFormat("en-US")).format(n);
const plural = (n, noun) => `${count(n)} ${noun}${n === 1 ? "" : "s"}`;
const code = (text) => Object.assign(document.createElement("code"), { textContent: text });
const later = (then) => (document.hidden ? setTimeout(then, 0) : requestAnimationFrame(then));

// --- the state, in the URL ------------------------------------------------------------
const flagOf = (view) => (view ? `--${view.replace(/^-{1,2}/, "")}` : "");
const viewOf = (flag) => flag.replace(/^--/, "");

function readState() {
  const query = new URLSearchParams(location.search);
  state.text = query.get("text") ?? "";
  showText();
  for (const [name] of OPTIONS) if (name !== "vocab") $(name).value = query.get(name) ?? "";
  readVocab(query.get("vocab") ?? "");
  const asked = query.get("view") ?? "";
  const flag = flagOf(asked);  // view=table and view=--table, the option's own value
  const known = [...$("view").options].some((option) => option.value === flag);
  $("view").value = known ? flag : "";
  const kind = ["checked", "exercise"].includes(query.get("kind")) ? query.get("kind") : "lesson";
  document.querySelector(`input[name=kind][value=${kind}]`).checked = true;
  page.chosenCopy = query.get("copy");
  page.viewProblem = known ? "" : `This page has no view “${asked}”, so it shows the ` +
    "lesson's. Pick one from the list.";
}

// The box shows the text to edit. A text too long to edit quickly (a browser lays out
// all of a box's text at once) is run whole, and the box shows its start, read-only.
function showText() {
  const long = state.text.length > BOX_MAX;
  const start = long ? state.text.slice(0, BOX_MAX - (/[\uD800-\uDBFF]/.test(state.text[BOX_MAX - 1])
                                                      ? 1 : 0)) : state.text;
  if ($("text").value !== start) $("text").value = start;
  $("text").readOnly = long;
  $("text-long").hidden = !long;
  $("text-long-note").textContent = long ? `This text is ${count(charsOf(state.text))} ` +
    `characters long, more than the box can edit quickly: it shows the first ` +
    `${count(charsOf(start))}, and the page runs all of it.` : "";
}

function charsOf(text) {  // characters, as Python counts them: a surrogate pair is one
  if (charsOf.text === text) return charsOf.chars;
  let pairs = 0;
  for (let k = 0; k < text.length - 1; k += 1) {
    const c = text.charCodeAt(k);
    if (c >= 0xD800 && c <= 0xDBFF) {
      const d = text.charCodeAt(k + 1);
      if (d >= 0xDC00 && d <= 0xDFFF) {
        pairs += 1;
        k += 1;
      }
    }
  }
  [charsOf.text, charsOf.chars] = [text, text.length - pairs];
  return charsOf.chars;
}

// The length of a value in the address, as URLSearchParams writes it: a space is "+",
// a letter, digit or one of *-._ is itself, any other byte of its UTF-8 is %XX.
function encodedLength(char) {
  const c = char.codePointAt(0);
  if (c < 0x80) return /[A-Za-z0-9*\-._ ]/.test(char) ? 1 : 3;
  if (c >= 0xD800 && c <= 0xDFFF) return 9;  // a lone surrogate is written as U+FFFD
  return 3 * (c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);
}

function bounded(value, budget) {  // the longest start of value that fits: [kept, chars]
  let used = 0, units = 0, chars = 0;
  for (const char of value) {
    used += encodedLength(char);
    if (used > budget) break;
    units += char.length;
    chars += 1;
  }
  return [value.slice(0, units), chars];
}

function writeState() {
  const values = {};
  for (const name of FIELDS) {
    let value = name === "kind" ? document.querySelector("input[name=kind]:checked").value
      : name === "text" ? state.text : $(name).value;
    if (name === "view") value = viewOf(value);
    if (name === "copy") value = page.names.length ? value : page.chosenCopy ?? "";
    if (name === "copy" && value === "lookup") value = "";  // the copy panel's default
    if (value && !(name === "kind" && value === "lesson")) values[name] = value;
  }
  const left = [];  // what the address leaves out, to say so
  for (const name of FIELDS.slice(1)) {
    if (values[name] && values[name].length > FIELD_MAX) {
      left.push([name, FIELD_MAX, charsOf(values[name])]);
      values[name] = bounded(values[name], FIELD_MAX)[0];
    }
  }
  const rest = new URLSearchParams(Object.entries(values).filter(([name]) => name !== "text"));
  if (page.pyodide !== PYODIDE) rest.set("pyodide", page.pyodideAsGiven);
  if (values.text) {
    const budget = URL_MAX - location.pathname.length - "?text=&".length - String(rest).length;
    const [kept, chars] = bounded(values.text, Math.max(0, budget));
    if (kept !== values.text) left.unshift(["text", chars, charsOf(values.text)]);
    values.text = kept;
  }
  const query = new URLSearchParams(values.text ? [["text", values.text]] : []);
  for (const [name, value] of rest) query.append(name, value);
  const address = `${location.pathname}${query.size ? "?" + query : ""}`;
  if (address !== location.pathname + location.search) history.replaceState(null, "", address);
  $("text-link-note").textContent = left.length ? "This page's address keeps only " +
    left.map(([name, kept, all]) => `the first ${count(kept)} of the ${count(all)} characters ` +
             `of ${name === "text" ? "the text" : name}`).join(", and ") +
    ", as many servers refuse a longer one. The page runs all of it; to share all of it, " +
    "copy the command." : "";
}

// Where Pyodide may come from: the pinned CDN folder, or a folder inside the page's own,
// named plainly (letters, digits, ".", "_", "-"; no name starting with "."). So no "..",
// no absolute path, no other site, nothing %-encoded: on shared hosting, the folder
// above this one, or a path from the site's root, can be another person's.
const INSIDE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/;
function pyodideFolder() {
  const given = new URLSearchParams(location.search).getAll("pyodide");
  if (!given.length) return { folder: PYODIDE };
  if (given.length === 1 && given[0] === PYODIDE) return { folder: PYODIDE, asGiven: given[0] };
  if (given.length === 1 && INSIDE.test(given[0])) {
    return { folder: HOME + given[0].replace(/\/?$/, "/"), asGiven: given[0] };
  }
  return { refused: given.join(", ") };
}

// The page's own Content-Security-Policy, added to the one in its HTML (a page obeys
// both): scripts and fetches only from this folder, tokembed.py and the pinned CDN.
// The HTML's cannot say so itself: its policy knows no folder, only the whole site.
function ownPolicy() {
  const tidy = (url) => url.replace(/[;,]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  const here = tidy(HOME), source = tidy(new URL("../tokembed.py", location.href).href);
  const meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = `script-src ${here} ${PYODIDE} 'wasm-unsafe-eval'; ` +
    `worker-src blob: ${here}; connect-src ${here} ${source} ${PYODIDE}`;
  document.head.append(meta);
  page.policy = meta.content;
}

// --- the command line each state stands for ------------------------------------------
function viewTakes(flag) {
  return page.takes[flag] ?? [];
}

function takesOf(flag) {  // what the view takes with the other controls as they are
  const takes = viewTakes(flag);
  return takes.includes("--vocab") && $("vocab").value
    ? takes.filter((option) => !NO_ROWS.includes(option)) : takes;
}

function wordsOf(text, takes) {
  if (takes.includes("TEXT")) return text === "" ? [] : [text];  // spaces and lines kept
  if (!takes.includes("WORDS")) return [];
  if (wordsOf.text !== text) [wordsOf.text, wordsOf.words] = [text, text.split(/\s+/).filter(Boolean)];
  return wordsOf.words;  // split once: a text can be 100,000 words
}

function argvOf(withFigure = false) {
  const flag = $("view").value, takes = takesOf(flag);
  const args = flag ? [flag] : [];
  for (const [name, option] of OPTIONS) {
    const value = $(name).value.trim();
    if (value !== "" && takes.includes(option)) args.push(option, value);
  }
  if (withFigure) args.push("--svg", "-");
  const words = wordsOf(state.text, takes);
  if (words.length) args.push("--");  // after --, every word is text
  for (const word of words) args.push(word);  // one at a time: a text can be 100,000 words
  return args;
}

// Quoted so that bash, zsh and fish all read the same words: a word of plain letters,
// digits and ,.+-=/:@% stays bare, unless it starts with = (zsh would put a command's
// path there) or % (fish's old process expansion); any other word is put in single
// quotes, with each ' and \ outside them, escaped (fish reads \\ and \' inside quotes).
function quote(word) {
  if (/^[\w.,+\-=/:@%]+$/.test(word) && !/^[=%]/.test(word)) return word;
  const quoted = word.split(/(['\\])/).map((piece) => (piece === "'" ? "\\'"
    : piece === "\\" ? "\\\\" : piece ? `'${piece}'` : "")).join("");
  return quoted || "''";
}

function shell(args) {
  const words = ["python3", "tokembed.py"];
  for (const arg of args) words.push(quote(arg));
  return words.join(" ");
}
const briefCommand = (argv) => (argv.length > 40
  ? `${shell(argv.slice(0, 40))} … (${count(argv.length)} words in all)` : brief(shell(argv)));
const brief = (command, most = 160) => (command.length > most
  ? `${command.slice(0, most)}… (${count(command.length)} characters)` : command);

// --- talking to Python ------------------------------------------------------------------
// One request at a time goes to the worker. A newer request for the same slot
// replaces one that waits, and the answer to an older one is not shown.
let worker = null, busy = null, serial = 0;
const waiting = { output: null, figure: null, source: null };  // in this order of need
const latest = { output: null, figure: null, source: null };
const answers = new Map();  // argv as JSON -> the answer: every view prints the same again
let remembered = 0;  // characters the answers hold: a few long ones are enough

function ask(slot, argv, then, tokens = null) {
  const key = JSON.stringify(argv);
  const request = { slot, argv, key, then, tokens, id: ++serial };
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

function remember(key, answer) {
  const size = (answer.out?.length ?? 0) + (answer.err?.length ?? 0) + 100;
  answers.set(key, { ...answer, size });
  remembered += size;
  while (answers.size > 1 && (answers.size > 200 || remembered > 40e6)) {
    const [oldest, old] = answers.entries().next().value;
    answers.delete(oldest);
    remembered -= old.size;
  }
}

function forget(key) {
  if (answers.has(key)) remembered -= answers.get(key).size;
  answers.delete(key);
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
  const request = busy;
  request.sent = performance.now();
  // past the limit, a view is too slow; unless no Web Lock watches the worker, when it may
  // as well have stopped on its own, unseen: then the page says only that nothing came
  request.limit = setTimeout(() => (page.watched
    ? stopped(request, `it ran for more than ${RUN_LIMIT_MS / 1000} s`)
    : stopped(request, `Python gave no answer for ${RUN_LIMIT_MS / 1000} s`, "silent")),
  RUN_LIMIT_MS);
  worker.postMessage({ kind: "run", id: request.id, argv: request.argv, tokens: request.tokens });
  page.runs.push(request.argv);
  settle();
}

// A long answer comes in parts (worker.js says why): each is kept, and its line breaks
// counted, as it comes; the whole is joined as a rope, which copies nothing.
function part(message) {
  if (busy?.id !== message.id) return;
  (busy.parts ??= []).push(message.out);
  busy.breaks = (busy.breaks ?? 0) + lineBreaks(message.out);
}

function answered(message) {
  const request = busy;
  if (!request || request.id !== message.id) return;
  busy = null;
  clearTimeout(request.limit);
  const parts = [...request.parts ?? [], message.out];
  const answer = { status: message.status, out: parts.reduce((whole, piece) => whole + piece),
                   err: message.err, tokens: message.tokens ?? null, parts,
                   breaks: (request.breaks ?? 0) + lineBreaks(message.out) };
  if (message.broken) {  // Pyodide itself failed: this worker can run nothing more
    stopped(request, `Pyodide failed: ${message.err}`, "ended");
    return;
  }
  remember(request.key, answer);
  try {
    if (latest[request.slot] === request.id) request.then(answer, request);
  } finally {
    pump();  // whatever showing it did, the next request goes
  }
}

// A view that runs past the limit ("slow"), a worker that ends on its own ("ended"), or,
// where no Web Lock watches the worker, one that gives no answer within the limit
// ("silent": too slow, or ended unseen) ends here: the view says which, is not run again
// by itself, and a fresh Python starts.
function stopped(request, why, how = "slow") {
  const ended = how === "ended";
  if (request) {
    clearTimeout(request.limit);
    if (busy === request) busy = null;
    const answer = { status: "stopped", out: "", err: why, tokens: null, ended, how };
    remember(request.key, answer);
    if (latest[request.slot] === request.id) request.then(answer, request);
  }
  page.restarts += 1;
  mark("restart");
  startWorker(`${ended ? `Python stopped (${why})` : how === "silent" ? why
                : `The page stopped Python: ${why}`}. ` +
              "A fresh Python is starting for what you ask next …");
}

let ticking = null;
function settle() {  // CI waits for the page to be idle; people see what still runs
  const idle = page.python && !busy && !show.timer && !drawing.active && !vocabs.asked &&
    !Object.values(waiting).some(Boolean);
  document.body.dataset.idle = idle || page.failed ? "yes" : "no";
  const running = busy?.slot === "output" ? busy : waiting.output;
  $("output").classList.toggle("stale", Boolean(running) && !page.failed);
  $("figure").classList.toggle("stale", Boolean(running || waiting.figure) && !page.failed);
  clearTimeout(settle.slow);  // a quick answer needs no word; a slow one says what runs
  if (page.python && running) {
    settle.slow = setTimeout(() => {
      say(`Running ${briefCommand(running.argv)} …`, "busy");
      clearInterval(ticking);
      ticking = setInterval(() => {  // seconds, where no screen reader reads them aloud
        const ran = busy === running ? (performance.now() - running.sent) / 1000 : 0;
        $("progress").textContent = ran ? `${Math.round(ran)} s; the page stops a view ` +
          `after ${RUN_LIMIT_MS / 1000} s` : "";
      }, 1000);
    }, 300);
  } else {
    clearInterval(ticking);
    if (page.python) $("progress").textContent = "";
    if (page.python && !page.failed && idle) say(page.readyText, "ready");
  }
}

function say(message, state = "") {
  if ($("status").textContent === message && $("status").dataset.state === state) return;
  $("status").textContent = message;
  $("status").dataset.state = state;
}

// --- showing what Python printed ---------------------------------------------------------
function show() {
  const flag = $("view").value, takes = takesOf(flag);
  if (page.python && vocabs.served === null &&
      (takes.includes("--vocab") || READS_CACHE.includes(flag))) {
    askVocabularies(false);  // which this page's server has: the --vocab field lists them
  }
  for (const [name, option] of OPTIONS) {
    const by = NO_ROWS.includes(option) && viewTakes(flag).includes(option) ? `${flag} --vocab`
      : undefined;  // --tokens takes --seed, but not with --vocab
    enable(name, takes.includes(option), option, by);  // and no view takes it: not shown
    $(name).closest(".field").hidden = !Object.values(page.takes).some((t) => t.includes(option));
  }
  vocabField(flag, takes);
  enable("text", takes.includes("WORDS") || takes.includes("TEXT"), "WORDS");
  $("text-label").textContent = takes.includes("TEXT") ? "Text, spaces and lines kept" : "Text";
  const given = /\(default: ([^)]+)\)/.exec(page.help[flag] ?? "");  // --params says its own
  $("text-default").textContent = `(empty: ${given ? given[1]
    : flag in EMPTY ? EMPTY[flag] === null ? "no row of your own" : `“${EMPTY[flag]}”`
    : `the lesson's “${page.text}”`})`;
  $("view-help").textContent = flag ? page.help[flag] ?? "" : LESSON_HELP;
  $("view-note").textContent = page.viewProblem;
  showVocab(takes);
  const args = argvOf();
  showCommand(shell(args));
  writeState();
  if (!page.python) {  // until Python runs, the lesson's own output, or a note
    if (args.length === 0 && !page.failed) {
      showOutput({ status: 0, out: page.lesson, err: "" }, args);
    } else if (!answers.has(JSON.stringify(args)) || page.failed) {
      wait($("output"), page.failed ? "Python could not start here: run the command " +
        "above on your machine." : "This view shows here once Python has loaded.");
      figureFor(null);
      showStrip(null);
    }
  }
  if (page.failed) return;
  clearTimeout(show.timer);
  const needs = vocabNeeds(flag, takes);  // the real vocabularies' files, first
  if (needs) {
    show.now = false;
    waiting.output = null;
    latest.output = null;  // an answer on its way is not shown: this one waits for the files
    wait($("output"), needs);
    figureFor(null);
    showStrip(null);
    settle();
    return;
  }
  // a table wider than a figure shows is not drawn: the page says why, without a run
  const d = Number($("d_model").value.trim());
  const figure = !takes.includes("--svg") ? null
    : takes.includes("--d-model") && d > page.figureMax ? { wide: d } : argvOf(true);
  // a view that prints its TEXT's token table (--tokens, --trace): where each token lies
  const vocab = (takes.includes("--vocab") && $("vocab").value) || null;
  const tokens = flag in PAINTS
    ? { text: state.text === "" ? EMPTY[flag] ?? page.text : state.text,
        merges: $("merges").value.trim() || null, vocab,
        rows: PAINTS[flag].rows && !vocab }  // --vocab shows no rows
    : null;
  const run = () => {
    show.timer = null;
    ask("output", args, (answer, request) => shown(answer, request, figure), tokens);
  };
  if (show.now || !page.python) run();
  else show.timer = setTimeout(run, DEBOUNCE_MS);
  show.now = false;
  settle();
}

function showCommand(command) {
  page.shown.command = command;
  const long = command.length > COMMAND_SHOWN;
  $("command").textContent = long ? `${command.slice(0, COMMAND_SHOWN)}…` : command;
  $("command-note").textContent = long ? `That is the start of a command of ` +
    `${count(command.length)} characters: Copy the command takes all of it.` : "";
}

function shown(answer, request, figure) {  // the text first; then the figure, the copy panel
  showOutput(answer, request.argv, () => {
    if (answer.status === 0 && figure?.wide) {
      waiting.figure = null;
      latest.figure = null;
      figureFor({ status: "wide", d: figure.wide });
    } else if (answer.status === 0 && figure) {
      ask("figure", figure, (drawn) => figureFor(drawn));
    } else {
      waiting.figure = null;
      latest.figure = null;
      figureFor(null);
    }
    if (page.sourcePending) {  // the copy panel fills after the first output, not before
      page.sourcePending = false;
      showSource();
    }
  });
}

function wait(box, why) {  // an empty box with a note that is plainly not a value
  if (box.id === "output") {
    drawing.id += 1;  // a drawing under way stops
    drawing.active = false;
    page.shown.output = null;
    outputNote(null);
  }
  box.replaceChildren();
  box.classList.add("waiting");
  box.classList.remove("error");
  box.dataset.why = why;
}

function enable(name, on, option, by = undefined) {
  const field = $(name);
  field.disabled = !on;
  const note = $(`${name}-note`);
  if (note) {  // say why a control is off: "--train takes no --d-model"
    const view = by ?? $("view").value;
    note.replaceChildren(...on ? [] : [view ? code(view) : "the lesson's view", " takes no ",
                                       option === "WORDS" ? "text" : code(option)]);
  }
}

// The output box shows Python's text itself, marked up for linked highlighting: a
// line (or a few) each frame, so that a long answer never holds the page; past
// SHOW_CHARS or SHOW_LINES it shows the start, says what it left out, and offers
// the whole as a file.
const drawing = { id: 0, active: false };
function showOutput({ status, out, err, tokens, parts, breaks, ended, how }, argv,
                    then = () => {}) {
  const pre = $("output");
  if (status === "stopped") {
    wait(pre, "");
    pre.classList.add("error");
    const said = ended ? `Python stopped while it ran this view (${err})`
      : how === "silent" ? `${err}, so the page stopped it`
      : `The page stopped this view: ${err}`;
    const again = "A fresh Python is starting: run it here again, or run the command " +
      "above on your machine.";
    pre.dataset.why = `${said}. ` + (ended ? again : how === "silent" ? "The view may be " +
      "too slow here, or Python may have stopped: served by plain http from another " +
      `machine, the page cannot tell which. ${again}` : "Python in a browser is " +
      "slower than on your machine, and a phone slower still: run the command above there.");
    $("outcome").textContent = "stopped";
    $("announce").textContent = `${said}.`;
    outputNote({ retry: argv, ended: ended || how === "silent" });
    showStrip(null);
    unlight();
    mark("output", argv);
    then();
    return;
  }
  const text = status === 0 ? out : err;
  const id = ++drawing.id;
  pre.classList.remove("waiting");
  pre.classList.toggle("error", status !== 0);
  pre.classList.remove("table", "more");
  $("output-more").hidden = true;
  pre.replaceChildren();
  unlight();
  const python = Boolean(page.python);
  page.shown.output = python ? text : null;
  page.shown.tokens = tokens ?? null;
  page.ids = tokens ? tokens.ids : null;
  const cut = status === 0 && parts ? cutOf(parts, breaks) : cutOf([text]);
  const lines = cut.text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const line = status === 0 && TABLES.includes(argv[0]) ? across(pre, lines) : marker(argv, tokens);
  let k = 0;
  drawing.active = true;
  // Lines go in blocks of BLOCK, which the browser lays out only when they are in
  // view (content-visibility): a long answer costs the lines on the screen, no more.
  const draw = () => {
    if (id !== drawing.id) return;
    const started = performance.now(), more = document.createDocumentFragment();
    do {
      const block = document.createElement("div");
      block.className = "block";
      const end = Math.min(lines.length, k + BLOCK);
      block.style.setProperty("--n", end - k);
      for (; k < end; k += 1) {
        try {
          block.append(line(lines[k]));
        } catch {  // a line the markup misreads is shown as printed, never lost
          block.append(plainLine(lines[k]));
        }
      }
      more.append(block);
    } while (k < lines.length && performance.now() - started < 6);
    pre.append(more);
    if (k < lines.length) {
      later(draw);
      return;
    }
    drawing.active = false;
    if (pre.classList.contains("table")) cue(pre);
    outputNote(cut.left ? cut : null);
    if (python) mark("output", argv);
    figureFor.then?.();
    settle();
    then();
  };
  if (lines.length) draw();  // the first piece at once: the page never shows it empty
  else {
    drawing.active = false;
    if (python) mark("output", argv);
    then();
  }
  try {
    showStrip(status === 0 ? tokens : null);
  } catch {
    showStrip(null);  // the text's tokens unpainted; the output shows them all
  }
  if (!python) return;
  if (status === 0) say(page.readyText, "ready");
  else if (status === -1) say("tokembed.py failed inside the page (a bug: please report it).", "error");
  $("outcome").textContent = status === 0 ? "" : `tokembed.py refused it (exit status ${status}):`;
  $("announce").textContent = status === 0 ? "" : `tokembed.py refused it: ${text.trim()}`;
}

// The start of a text that the box shows, and what it leaves out. The text is given in
// parts, with their line breaks counted: only the parts that hold its start are read.
function cutOf(parts, breaks = parts.reduce((n, piece) => n + lineBreaks(piece), 0)) {
  const chars = parts.reduce((n, piece) => n + piece.length, 0);
  let text = "";
  for (const piece of parts) {
    if (text.length > SHOW_CHARS) break;
    text += piece;
  }
  let end = Math.min(text.length, SHOW_CHARS), lines = 0, at = -1;
  while (lines < SHOW_LINES && (at = text.indexOf("\n", at + 1)) !== -1 && at < end) lines += 1;
  if (lines === SHOW_LINES) end = Math.min(end, at + 1);  // the SHOW_LINES-th line ends here
  if (end < chars && end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1;
  const left = end < chars;
  // the lines that start before a place: the line breaks before its last character, and one
  const last = parts.findLast((piece) => piece)?.at(-1);
  const all = breaks - (last === "\n" ? 1 : 0) + (chars > 0 ? 1 : 0);
  const shown = lineBreaks(text.slice(0, Math.max(0, end - 1))) + (end > 0 ? 1 : 0);
  return { text: text.slice(0, end), left, chars, shownChars: end,
           lines: left ? all : 0, shownLines: left ? shown : 0 };
}

function lineBreaks(text) {
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n += 1;
  return n;
}

function outputNote(about) {  // under the output: what it left out, or a stopped view
  const box = $("cut-note");
  box.hidden = !about;
  $("save").hidden = !about?.left;
  $("retry").hidden = !about?.retry;
  if (!about) return;
  if (about.retry) {
    $("cut-text").textContent = about.ended ? "Or run it here again:"
      : "Or run it here again, and wait longer:";
    page.retry = about.retry;
    return;
  }
  $("cut-text").textContent = `The page shows the first ${plural(about.shownLines, "line")} ` +
    `(${count(about.shownChars)} characters) of the ${plural(about.lines, "line")} ` +
    `(${count(about.chars)} characters) that tokembed.py printed: more would hold the page ` +
    "up. To see it all, run the command above on your machine (add | less to page through " +
    "it), or save it here:";
}

function saveOutput() {
  const blob = new Blob([page.shown.output ?? ""], { type: "text/plain;charset=utf-8" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "tokembed-output.txt";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

// --- the figure -----------------------------------------------------------------------------
// Shown as tokembed.py drew it, byte for byte: the page sizes its box, not the SVG.
function figureFor(drawn) {
  const svg = drawn?.status === 0 ? drawn.out : "";
  const note = $("figure-note");
  note.hidden = true;
  if (drawn?.status === "wide") {
    note.replaceChildren(`No figure for this one: tokembed.py draws a table of at most ` +
      `${page.figureMax} numbers a row, and this one has ${count(drawn.d)}, too many to read ` +
      `(`, code("--svg"), " refuses it too). Set d_model to " +
      `${page.figureMax} or less to draw it here, or with `, code("--svg FILE"),
      " on your machine.");
    note.hidden = false;
  } else if (drawn && drawn.status !== 0 && drawn.status !== "stopped") {
    const said = drawn.err.trim().replace(/^tokembed\.py: error: /, "");
    note.replaceChildren("No figure for this one: ", code("--svg"), ` says “${said}”.`);
    note.hidden = false;
  }
  const show = () => showFigure(svg);
  if (drawing.active) figureFor.then = show;  // after the text, never before it
  else show();
}

function showFigure(svg) {
  figureFor.then = null;
  page.shown.figure = svg;
  const box = $("figure");
  box.innerHTML = svg;
  const drawn = box.querySelector("svg");
  if (drawn) {  // its box is named as the figure is: a table, or --languages' chart
    const title = drawn.querySelector("title")?.textContent.trim();
    box.closest(".scroller").setAttribute("aria-label", title ? `The figure: ${title}`
                                                               : "The figure");
    uniqueIds(drawn);
    box.style.setProperty("--w", drawn.viewBox.baseVal.width);
    box.style.setProperty("--h", drawn.viewBox.baseVal.height);
    $("figure-pane").style.setProperty("--fh", drawn.viewBox.baseVal.height);
    mark("figure");
  }
  $("figure-pane").hidden = !drawn;
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
// per row; --tokens prints a table with a line per token. Marked up here, line by line,
// the text stays byte for byte what Python printed.
function marker(argv, tokens) {
  if (tokens) return tokenLines(tokens);
  const words = textWords(argv);
  if (!words) return plainLine;
  const ofVocab = new Map(page.vocab.map((word, k) => [word, k]));
  const inText = new Set(words);
  let ids = null, row = null;
  return (line) => {
    if (line.length > MARK_MAX) return plainLine(line);
    const span = plainLine("");
    const found = /^token ids: \[([\d, ]*)\]/.exec(line);
    if (found && ids === null) {
      const listed = found[1].split(",").filter((n) => n.trim()).map(Number);
      const fits = listed.length === words.length &&
        listed.every((id, k) => page.vocab[id] === words[k]);
      ids = fits ? listed : [];
      page.ids = ids;
      if (fits) {
        fill(span, line, /(\d+)/g, (number, k) => idSpan(number, ids[k], k));
        return span;
      }
    }
    if (ids && ids.length) {
      row = rowOf(line, ids, words, row, ofVocab, inText);
      if (row !== null) {
        span.dataset.row = row;
        fill(span, line, /^(\s*)(\d+)?(\s*)(\S+)|\brow (\d+)\b/g, (piece, k, match) =>
          tokenPieces(piece, match, row));
        return span;
      }
    }
    span.textContent = line;
    return span;
  };
}

// A table of columns to read across (--languages: a row a language, a column a
// vocabulary) is not wrapped, a row cut in two: the box sizes its text to fit the widest
// row, down to 11 px, and past that scrolls sideways, all rows as one, and says so.
// A row is a line with a gap of two spaces or more between its words; the lines of
// prose around the table wrap as every output's do.
function across(pre, lines) {
  const row = (line) => /\S {2,}\S/.test(line);
  const widest = Math.max(0, ...lines.filter(row).map((line) => [...line.trimEnd()].length));
  pre.classList.add("table");
  pre.style.setProperty("--cols", widest);
  return (line) => {
    const span = plainLine(line);
    if (row(line)) span.classList.add("across");
    return span;
  };
}

function plainLine(line) {
  const span = document.createElement("span");
  span.className = "line";
  span.textContent = line;
  return span;
}

function textWords(argv) {  // the words a lesson view looked up
  const flag = argv[0] in page.takes ? argv[0] : "";
  if (flag in VOCAB_OF || !viewTakes(flag).includes("WORDS")) return null;
  const at = argv.indexOf("--");
  return at < 0 ? page.text.split(" ") : argv.slice(at + 1);
}

function rowOf(line, ids, words, previous, ofVocab, inText) {
  if (/^\s/.test(line)) return line.trim() ? previous : null;  // a block's next line
  let match = /^(\d+)\s+(\S+)\s/.exec(line);
  if (match) {
    const n = Number(match[1]);
    if (page.vocab[n] === match[2]) return n;  // a table's row: "4   order   [...]"
    if (words[n] === match[2]) return ids[n];  // a position: "1   order    token row"
  }
  match = /^(\S+)\s/.exec(line);
  if (match && inText.has(match[1]) && ofVocab.has(match[1])) {
    return ofVocab.get(match[1]);  // a token's line: "refund  -> row 3: [...]"
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
  if (position !== undefined) span.dataset.position = position;
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

// --tokens prints a header, the text cut into its tokens with |, and then, from the
// column headings' line ("id  token  times"), a row for each distinct token in the order
// the text first uses it: its ID (right-aligned), two spaces, the token as text (a space
// as ␣; a part of a character as its bytes, "\xe0\xa5 (of X)", which holds single
// spaces), how many times the text has it, and its row of the table; a row of numbers too
// wide runs on in lines that start with spaces. Past so many rows a line counts the rest;
// then "token ids: [...]", every ID in the text's order, runs on in lines indented 12.
// --trace ends with the same table, without rows, after the joins. Each row is cut into
// its columns, so that on a phone it is a card that wraps between them, never inside one,
// and is linked to its token wherever the text has it; each ID of the list, to its token
// at that place. If anything is not what the worker found (an ID, or a token written
// otherwise), the rest is shown plain.
function tokenLines(tokens) {
  const distinct = [...new Set(tokens.ids)];
  const first = new Map();
  tokens.ids.forEach((id, k) => first.has(id) || first.set(id, k));
  let stage = "before", k = 0, j = 0, cuts = [], row = null, numbers = -1, timesEnd = 0;
  const cells = (span, line, head, columns = cuts) => {
    span.classList.add("cells");
    let at = 0;
    for (const [n, end] of [...columns, line.length].entries()) {
      if (end <= at && n < columns.length) continue;
      const cell = document.createElement("span");
      cell.className = "cell";
      const piece = line.slice(at, Math.max(at, n < columns.length ? end : line.length));
      if (n === 0 && head) head(cell, piece);
      else cell.textContent = piece;
      if (!piece.trim()) cell.classList.add("blank");
      if (n === numbers) cell.classList.add("numbers");  // the row of the table
      span.append(cell);
      at = Math.max(at, end);
    }
    return span;
  };
  const ids = (span, line) => {  // "token ids: [3, 1, 4]", and the lines it runs on in
    let right = true;
    fill(span, line, /\d+/g, (number) => {
      right &&= j < tokens.ids.length && Number(number) === tokens.ids[j];
      if (!right) return number;
      const id = idSpan(number, tokens.ids[j], j++);
      id.classList.add("place");  // it lights its own place, a target of its own
      id.style.setProperty("--n", number.length);
      return id;
    });
    stage = right && !line.includes("]") ? "ids" : "done";
    return span;
  };
  return (line) => {
    if (line.length > MARK_MAX) return plainLine(line);
    const span = plainLine("");
    if (stage === "before" && /^\s*id  token +times(  |\n|$)/.test(line)) {
      stage = "table";
      // where each column starts; the ID and its token stay together
      cuts = [...line.matchAll(/(?<=\S)\s{2,}(?=\S)/g)].map((m) => m.index + m[0].length).slice(1);
      numbers = cuts.findIndex((at) => line.startsWith("row ", at)) + 1 || -1;  // "row of a ..."
      timesEnd = line.indexOf("times") + "times".length;  // its numbers end there, as it does
      return cells(span, line);
    }
    if (stage === "table") {
      const found = /^(\s*)(\d+)  (?=\S)/.exec(line);
      const written = found && tokens.shown[first.get(Number(found[2]))];
      if (found && k < distinct.length && Number(found[2]) === distinct[k] &&
          line.startsWith(written, found[0].length) &&
          /^( {2}|\n?$)/.test(line.slice(found[0].length + written.length))) {
        row = distinct[k];
        k += 1;
        span.dataset.row = row;
        span.dataset.position = first.get(row);
        // the columns after the token are where the headings' are, less what the token
        // takes in the terminal beyond its length here: a wide character (私) takes two
        // columns, one place of a string, as the table pads it
        const after = found[0].length + written.length;
        const times = after + (/^ *\d+/.exec(line.slice(after))?.[0].length ?? 0);
        const mine = cuts.map((at) => at - (timesEnd - times));
        const starts = [0, ...mine];
        numbers = starts.findIndex((at, n) => line.slice(at, starts[n + 1]).startsWith("["));
        return cells(span, line, (cell, piece) => {
          cell.append(found[1], idSpan(found[2], row, first.get(row)),
                      piece.slice(found[1].length + found[2].length));
        }, mine);
      }
      if (!found && row !== null && /^\s+\S/.test(line)) {  // a wide row runs on
        span.dataset.row = row;
        span.dataset.position = first.get(row);
        span.classList.add("more");
        return cells(span, line);
      }
      const more = /^\.\.\. and ([\d,]+) more distinct tokens/.exec(line);
      stage = (more ? k + Number(more[1].replace(/,/g, "")) : k) === distinct.length ? "after"
        : "done";
      if (more) {
        span.textContent = line;
        return span;
      }
    }
    if (stage === "after" && line.startsWith("token ids: [")) return ids(span, line);
    if (stage === "ids" && /^ {12}\d/.test(line)) return ids(span, line);
    if (stage !== "before") stage = "done";
    span.textContent = line;
    return span;
  };
}

// The learner's own text, each token painted over its part of it, as tiktokenizer
// does. A character that several tokens share (an emoji is four bytes) is shown once,
// with its tokens after it, each as it decodes alone: U+FFFD, as the lesson says.
function showStrip(tokens) {
  const strip = $("strip");
  strip.replaceChildren();
  $("strip-box").hidden = !tokens;
  if (!tokens) return;
  const text = tokens.text;  // the one the view split: the box's, or the view's own default
  const n = tokens.ids.length, shown = Math.min(n, STRIP_MAX);
  $("strip-note").textContent = `${plural(n, "token")}` + (shown < n ? `; the first ` +
    `${count(shown)} are painted here, and the output lists them all.` : ".") +
    " Arrow keys move from one token to the next.";
  strip.setAttribute("aria-label", `The text as its ${plural(n, "token")}`);
  // Built whole, in one go: the browser lays out a paragraph of tokens at once, so
  // pieces a frame would each lay out all of it again. STRIP_MAX keeps it quick.
  const more = document.createDocumentFragment();
  for (let k = 0; k < shown;) {
    if (tokens.whole[k]) {
      more.append(chip(tokens, k, text.slice(tokens.starts[k], tokens.ends[k]), ""));
      k += 1;
      continue;
    }
    let end = tokens.ends[k], j = k + 1;  // the tokens that share these characters
    while (j < n && tokens.starts[j] < end) end = Math.max(end, tokens.ends[j++]);
    const chars = text.slice(tokens.starts[k], end);
    const group = document.createElement("span");
    group.className = "split";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", `“${chars}”, in ${plural(j - k, "token")}, ` +
      "each a part of its bytes");
    const glyph = document.createElement("span");
    glyph.className = "glyph";
    glyph.setAttribute("aria-hidden", "true");
    glyph.textContent = chars;
    group.append(glyph);
    for (; k < j && k < shown; k += 1) group.append(chip(tokens, k, tokens.alone[k], chars));
    k = j;
    more.append(group);
  }
  strip.append(more);
  strip.querySelector(".tok")?.setAttribute("tabindex", "0");
}

function chip(tokens, k, content, part) {
  const token = document.createElement("span");
  token.className = `tok c${k % 4}`;
  token.setAttribute("role", "option");
  token.setAttribute("aria-selected", "false");
  token.tabIndex = -1;
  token.dataset.row = tokens.ids[k];
  token.dataset.position = k;
  // its name starts with what it shows, as WCAG's label in name asks, then the token as
  // the table writes it: "“ refund”, token 304, ␣refund, row 304" (--trace and --vocab
  // show no rows); a byte of a character says whose, "\xf0 (of 😉)", as the table does
  const seen = content.replace(/\n/g, "\u21B5"), written = tokens.shown[k];
  const row = tokens.rows ? `, row ${tokens.ids[k]}` : "";
  token.setAttribute("aria-label", (seen.trim() ? `“${seen}”, ` : "") + `token ` +
    `${tokens.ids[k]}, ${written}${row}` +
    (part && !written.includes(" (of ") ? `, part of “${part}”` : ""));
  const pieces = content.split("\n");
  pieces.forEach((piece, j) => {
    if (j) {
      const mark = document.createElement("span");
      mark.className = "nl";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = "\u21B5";
      token.append(mark, "\n");
    }
    if (piece) token.append(piece);
  });
  if (!content) token.classList.add("empty");
  token.style.setProperty("--n", Math.max(1, ...pieces.map((piece) => [...piece].length)));
  return token;
}

// What is pointed at, focused or tapped: a row ("344"), which lights every place of its
// token; or, for an ID of --tokens' list, a row at one place ("344@6"), which lights that
// place only: that ID, the token painted there, and the row's line of the table.
let pinned = null;
const placed = (element) => element.matches("#strip .tok, #output .id.place");
function light(spot) {
  for (const element of document.querySelectorAll(".lit")) element.classList.remove("lit");
  for (const element of document.querySelectorAll("#strip [aria-selected=true]")) {
    element.setAttribute("aria-selected", "false");
  }
  if (spot === null) {
    document.body.classList.remove("lighting");
    $("lit-note").textContent = "";
    return;
  }
  const [row, place = null] = String(spot).split("@").map(Number);
  const lit = [...document.querySelectorAll(`#output [data-row="${row}"], ` +
    `#figure [data-row="${row}"], #strip [data-row="${row}"]`)].filter((element) =>
    place === null || !placed(element) || Number(element.dataset.position) === place);
  for (const element of lit) element.classList.add("lit");
  for (const element of lit.filter((element) => element.closest("#strip"))) {
    element.setAttribute("aria-selected", "true");
  }
  document.body.classList.add("lighting");
  const at = [];
  for (const [k, id] of (page.ids ?? []).entries()) if (id === row) at.push(k);
  const listed = at.length > 12 ? `${at.slice(0, 12).join(", ")} and ${count(at.length - 12)} more`
    : at.join(", ");
  const where = at.length ? `the text has it at position${at.length > 1 ? "s" : ""} ${listed}`
                          : "the text does not use it";
  const figure = $("figure").querySelector(`[data-row="${row}"]`) ? " and in the figure" : "";
  const tokens = page.shown.tokens;
  if (tokens) {  // --tokens: a line a distinct token, and every ID in a list
    const k = tokens.ids.indexOf(row), output = $("output");
    const line = output.querySelector(`.cells[data-row="${row}"]`);
    const ids = output.querySelector(`.line:not(.cells) .id[data-row="${row}"]`);
    const inOutput = place !== null ? (line ? "its line, and " : "") + `its ID at position ` +
        `${place} of the list, ${line ? "are" : "is"} lit in the output, as is the token at ` +
        "that place in your text"
      : line && ids ? "its line, and its IDs in the list, are lit in the output"
      : line ? "its line is lit in the output"
      : ids ? "its IDs are lit in the output's list (its table has a line only for the first " +
              "distinct tokens)"
      : "its line is past the part of the output shown here";
    const table = tokens.rows ? `, is row ${row} of the table` : "";
    $("lit-note").textContent = `Token ${row}, ${tokens.shown[k] ?? "?"}${table}: ` +
      `${inOutput}; ${where}.`;
    return;
  }
  const word = page.vocab[row] ?? "?";
  $("lit-note").textContent = `“${word}” is token ID ${row}: row ${row} of the table, ` +
    `lit in the output${figure}; ${where}.`;
}
const unlight = () => {
  pinned = null;
  light(null);
};
const rowAt = (target) => target?.closest?.("[data-row]")?.dataset.row ?? null;
const spotAt = (target) => {  // "row", or "row@place" for an ID of --tokens' list
  const row = rowAt(target);
  const id = target.closest(".id");
  return row === null ? null : id?.classList.contains("place") ? `${row}@${id.dataset.position}`
    : row;
};

function linkRows() {
  for (const box of [$("output"), $("figure"), $("strip")]) {
    box.addEventListener("pointerover", (event) => {
      if (event.pointerType !== "touch" && pinned === null && rowAt(event.target) !== null) {
        light(spotAt(event.target));
      }
    });
    box.addEventListener("pointerout", (event) => {
      if (event.pointerType !== "touch" && pinned === null &&
          rowAt(event.relatedTarget) === null) light(null);
    });
    box.addEventListener("click", (event) => {  // a tap, on a phone
      const spot = spotAt(event.target);
      if (spot === null) return;
      pinned = pinned === spot ? null : spot;
      light(pinned);
      if (box.id === "strip") rove(event.target.closest(".tok"), false);
      event.stopPropagation();
    });
  }
  for (const box of [$("output"), $("strip")]) {
    box.addEventListener("focusin", (event) => {
      if (rowAt(event.target) !== null) light(spotAt(event.target));
    });
    box.addEventListener("focusout", (event) => {
      if (pinned === null && rowAt(event.relatedTarget) === null) light(null);
    });
  }
  $("strip").addEventListener("keydown", (event) => {  // one tab stop; arrows go along
    const tokens = [...$("strip").querySelectorAll(".tok")];
    const k = tokens.indexOf(document.activeElement);
    const to = { ArrowRight: k + 1, ArrowDown: k + 1, ArrowLeft: k - 1, ArrowUp: k - 1,
                 Home: 0, End: tokens.length - 1 }[event.key];
    if (to === undefined || k < 0) return;
    event.preventDefault();
    rove(tokens[Math.max(0, Math.min(tokens.length - 1, to))], true);
  });
  document.addEventListener("click", () => pinned !== null && unlight());
  document.addEventListener("keydown", (event) => event.key === "Escape" && unlight());
}

function rove(token, focus) {
  if (!token) return;
  for (const other of $("strip").querySelectorAll(".tok[tabindex='0']")) other.tabIndex = -1;
  token.tabIndex = 0;
  if (focus) token.focus();
}

// --- the real vocabularies, if this page's own folder serves their files ------------------
// A deployer may put vocab.bpe, cl100k_base.tiktoken, o200k_base.tiktoken and (where
// Meta's licence allows) llama3.tiktoken in .docs/vocab/: the worker looks for them (HEAD)
// when a view that takes --vocab, or --languages, is first shown, and reads them all,
// once, when --vocab or --languages first runs; --vocab offers only those that it found.
// With none there, one line says so. Nothing comes from OpenAI or Meta.
const vocabs = { served: null, loaded: false, failed: {}, asked: null, holding: false,
                 unknown: "", missing: "", bytes: 0, total: 0 };  // what a link asked for
const listed = (names) => (names.length < 3 ? names.join(" and ")
  : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);
const offered = () => Object.keys(page.vocabularies).filter((name) =>
  vocabs.served && name in vocabs.served && !(name in vocabs.failed));

function readVocab(asked) {  // a link's ?vocab=: one of the names, nothing else
  const known = Object.hasOwn(page.vocabularies, asked);
  Object.assign(vocabs, { unknown: known ? "" : asked, missing: "" });
  vocabOptions(known ? [asked] : []);
  $("vocab").value = known ? asked : "";
}

// What the --vocab field says of a link's ?vocab= that the page cannot give: a name it
// does not know, or one its server does not have; with none served, in the same line as
// that (one line, not two that repeat each other)
function vocabProblem(none, flag) {
  const all = listed(Object.keys(page.vocabularies));
  const offer = `a deployer offers ${all} by putting ` +
    `${listed(Object.values(page.vocabularies))} in ${VOCAB_FOLDER}`;
  const { unknown, missing } = vocabs;
  if (unknown) {
    return `This page knows no vocabulary “${brief(unknown, 40)}”` +
      (none ? `, and its server has none: ${offer}.` : `: --vocab takes ${all}.`);
  }
  if (!missing) return "";
  const view = viewTakes(flag).includes("--vocab") ? flag : "--tokens";  // --trace, or --tokens
  const home = `on your machine, python3 tokembed.py ${view} --vocab ${missing} reads`;
  return none ? `This page's server has no real vocabulary, so the page shows the corpus's ` +
    `merges: ${home} ${missing}, and a deployer offers it here by putting ` +
    `${page.vocabularies[missing]} in ${VOCAB_FOLDER}.`
    : `This page's server has no ${missing} (${VOCAB_FOLDER}${page.vocabularies[missing]}), ` +
      `so the page shows the corpus's merges; ${home} it.`;
}

function vocabOptions(names) {
  const select = $("vocab"), chosen = select.value;
  const options = [["", "the corpus's merges"], ...names.map((name) =>
    [name, page.models[name] ? `${name} (${page.models[name]})` : name])];
  const now = [...select.options].map((option) => [option.value, option.text]);
  if (JSON.stringify(now) !== JSON.stringify(options)) {
    select.replaceChildren(...options.map(([value, text]) => new Option(text, value)));
  }
  select.value = names.includes(chosen) ? chosen : "";
}

// The --vocab field: the names this page's server has, or one line that it has none
function vocabField(flag, takes) {
  const chosen = $("vocab").value;
  const names = vocabs.served ? offered() : [chosen].filter(Boolean);
  vocabOptions(names);
  const reads = READS_CACHE.includes(flag);
  if (!viewTakes(flag).includes("--vocab") && !reads) return;  // enable() said why it is off
  if (takes.includes("--vocab")) $("vocab").disabled = vocabs.served !== null && !names.length;
  const files = Object.values(page.vocabularies);
  const none = vocabs.served !== null && !Object.keys(vocabs.served).length;
  const problem = vocabProblem(none, flag);
  const said = [problem, ...Object.entries(vocabs.failed).map(([name, { why }]) =>
    why ? `${VOCAB_FOLDER}${page.vocabularies[name]} did not load (${why}), so the page ` +
          `leaves ${name} out.`
      : `${VOCAB_FOLDER}${page.vocabularies[name]} on this page's server is not ${name}'s ` +
        `file (damaged, or another file by that name), so the page leaves ${name} out: ` +
        `whoever serves the page can copy it again from ~/.cache/tokembed.`)].filter(Boolean);
  if (none && !problem) {
    said.push(`This page's server has no real vocabulary: a deployer offers ` +
              `${listed(Object.keys(page.vocabularies))} by putting ${listed(files)} in ` +
              `${VOCAB_FOLDER}.`);
  } else if (reads && names.length) {
    said.push(`${flag} takes no --vocab: it counts in each vocabulary this page's server ` +
              `has, ${listed(names)}.`);
  }
  if (said.length || takes.includes("--vocab")) $("vocab-note").textContent = said.join(" ");
}

// What the view waits for before it runs: "" for nothing, or a note of what it waits for
function vocabNeeds(flag, takes) {
  vocabs.holding = false;
  if (!page.python) return "";
  const chosen = takes.includes("--vocab") ? $("vocab").value : "";
  if (!chosen && !READS_CACHE.includes(flag)) return "";
  if (vocabs.served === null) {
    askVocabularies(false);
    vocabs.holding = true;
    return "The page is looking for the real vocabularies on its server …";
  }
  if (vocabs.loaded || !offered().length) return "";
  askVocabularies(true);
  vocabs.holding = true;
  return loadingNote();
}

function loadingNote() {
  const names = offered();
  const total = vocabs.total || names.reduce((sum, name) => sum + (vocabs.served[name] || 0), 0);
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  return `Loading ${listed(names)} from this page's server, once` +
    (total ? ` (${mb(total)} MB${vocabs.bytes ? `, ${mb(vocabs.bytes)} so far` : ""})` : "") +
    " …";
}

function askVocabularies(load) {
  if (!page.python || (vocabs.asked && (vocabs.asked.load || !load))) return;
  vocabs.asked = { id: ++serial, load };
  vocabs.bytes = 0;
  worker.postMessage({ kind: "vocabularies", id: vocabs.asked.id, load });
  mark(load ? "vocabularies-asked" : "vocabularies-looked");
  if (load) say(loadingNote(), "busy");
  settle();
}

function vocabBytes({ id, bytes, total }) {
  if (vocabs.asked?.id !== id) return;
  Object.assign(vocabs, { bytes, total });
  if (vocabs.holding) $("output").dataset.why = loadingNote();
}

function vocabAnswered({ id, served, loaded, failed }) {
  if (vocabs.asked?.id !== id) return;
  const load = vocabs.asked.load, chosen = $("vocab").value;
  vocabs.asked = null;
  vocabs.served = served;
  if (load) Object.assign(vocabs, { loaded: true, failed });
  mark(load ? "vocabularies-loaded" : "vocabularies-found", loaded);
  if (chosen && !offered().includes(chosen)) {  // a link's, which this server cannot give
    vocabs.missing = failed[chosen] ? "" : chosen;
  }
  if (vocabs.holding) {
    show.now = true;
    show();
  } else {
    const flag = $("view").value;
    vocabField(flag, takesOf(flag));
    settle();
  }
}

// --- the vocabulary: each word a button that adds it to the text ----------------------
function showVocab(takes) {
  const flag = $("view").value;
  const kind = flag in VOCAB_OF ? VOCAB_OF[flag] : takes.includes("WORDS") ? "lesson" : null;
  const words = kind === "corpus" ? page.corpus : kind === "lesson" ? page.vocab : [];
  const box = $("words");
  box.hidden = !words.length;
  $("words-label").textContent = kind === "corpus"
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
  const text = state.text.replace(/\s+$/, "");
  state.text = text ? `${text} ${word}` : word;
  showText();
  $("added").textContent = `Added ${word}: the text is now "${brief(state.text, 200)}".`;
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
  ask("source", args, ({ status, out, err, ended, how }) => {
    if (status === "stopped") {
      wait($("source"), ended ? `Python stopped while it ran this (${err}).`
        : how === "silent" ? `${err}.` : `The page stopped it: ${err}.`);
      return;
    }
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
  const more = !box.closest("[hidden]") &&  // measured, a hidden box would lay the page out
    box.scrollWidth > box.clientWidth + 1;
  box.classList.toggle("more", more);
  const note = box.nextElementSibling?.classList.contains("more-note") && box.nextElementSibling;
  if (note) note.hidden = !more;
}

async function copyText(text, where) {
  try {
    await navigator.clipboard.writeText(text);
    where.textContent = "Copied.";
  } catch {
    where.textContent = "The browser did not allow it: select the text and copy it.";
  }
}

// --- loading --------------------------------------------------------------------------------
function fail(what, text) {
  page.failed = what;
  clearInterval(news.timer);
  worker?.terminate();
  say(text, "error");
  $("progress").textContent = "";
  $("output").classList.remove("stale");
  if (page.shown.output === null && !drawing.active) {
    wait($("output"), "Python could not start here: run the command above on your machine.");
  }
  wait($("source"), "The functions to copy come from tokembed.py, which did not load here.");
  $("copy").disabled = true;
  settle();
  mark("failed");
}

function help(lines) {  // a failure's message, with what to run (a command a line)
  const box = $("help");
  box.replaceChildren(...lines.map((line) => {
    const p = document.createElement(line.code ? "pre" : "p");
    if (line.code) p.append(...line.code.split("\n").map((command, k, all) =>
      plainLine(k < all.length - 1 ? `${command}\n` : command)));
    else p.textContent = line;
    return p;
  }));
  box.hidden = false;
}

function failed({ what, url, detail }) {
  if (page.failed) return;
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

// Loading is watched, not timed: the worker reports each step and each byte, and
// says it is alive every second while it waits on one. Loading fails only on real
// silence: no word at all for SILENT_MS, or no byte and no step for STUCK_MS. Two
// steps hold the worker without a word, as Python starts and as it imports
// tokembed.py: after "compiled" and "import", silence may last QUIET_MS (four tabs
// starting at once on two cores keep it silent for most of a minute). A fetch that
// stalls, the worker gives up on itself after 30 s, and says which.
const STEPS = {
  start: "starting", bytes: "downloading", file: "downloading", source: "downloading",
  loader: "downloading", compile: "compiling Python's WebAssembly",
  compiled: "starting Python", python: "importing tokembed.py", import: "importing tokembed.py",
};
const news = { heard: 0, moved: 0, step: "start", since: 0, timer: null, bytes: 0 };
function watchLoading() {
  const now = performance.now();
  Object.assign(news, { heard: now, moved: now, since: now, step: "start", bytes: 0 });
  clearInterval(news.timer);
  news.timer = setInterval(() => {
    if (page.python || page.failed) {
      clearInterval(news.timer);
      return;
    }
    const at = performance.now(), silent = at - news.heard, still = at - news.moved;
    const quiet = ["compiled", "import"].includes(news.step) ? QUIET_MS : SILENT_MS;
    if (silent > quiet) {
      failed({ what: "Pyodide", url: page.pyodide, detail: `the page's worker has said ` +
               `nothing for ${quiet / 1000} s, while ${STEPS[news.step]}` });
    } else if (still > Math.max(STUCK_MS, quiet)) {
      failed({ what: "Pyodide", url: page.pyodide, detail: `loading has not moved for ` +
               `${STUCK_MS / 1000} s, while ${STEPS[news.step]}` });
    } else {
      $("progress").textContent = `${(news.bytes / 1e6).toFixed(1)} MB so far; ` +
        `${STEPS[news.step]}, ${Math.round((at - news.since) / 1000)} s. A slow machine ` +
        "takes a minute or more: the page waits while loading moves.";
    }
  }, 1000);
}

// Loading only goes forward: WebAssembly compiles as it streams in, so a file (the
// WebAssembly itself, the standard library) may finish after "compile" or "compiled"; the
// status, the progress line and the watchdog stay where loading has got to, and never
// flicker back to "Loading".
const RANK = { start: 0, bytes: 1, file: 1, source: 1, loader: 1, compile: 2, compiled: 3,
               python: 4, import: 4 };
function progress({ step, text, bytes }) {
  news.moved = performance.now();
  news.bytes = bytes;
  page.timings[step === "bytes" ? "bytes" : `${step}:${text}`] ??= performance.now();
  if (RANK[step] >= RANK[news.step]) {
    if (STEPS[step] !== STEPS[news.step]) news.since = performance.now();
    news.step = step;
  }
  if (step === "source") page.sourceArrived = true;
  if (page.restarting) return;
  const at = RANK[news.step];
  say(at >= RANK.python ? "Python has started; importing tokembed.py …"
    : at === RANK.compiled ? `Python (Pyodide ${VERSION}) has arrived, and is starting …`
    : `Loading Python (Pyodide ${VERSION}, about 12 MB, once)` +
      (page.sourceArrived ? "; tokembed.py has arrived …" : " and tokembed.py …"), "busy");
}

function ready(info) {
  page.python = info;
  page.restarting = false;
  page.takes = Object.fromEntries(info.views);
  page.help = Object.fromEntries(info.help);
  page.vocab = info.vocab;
  page.corpus = info.corpus;
  page.text = info.text;
  page.names = info.names;
  page.figureMax = info.figure_max;
  page.readyText = `Ready: tokembed.py ${info.version}, on Python ${info.python} in ` +
                   "your browser. Change anything above.";
  mark("ready");
  $("progress").textContent = "";
  $("words").dataset.count = "";  // redrawn from Python's own VOCAB
  page.vocabularies = Object.fromEntries(info.vocabularies.map(([name, file]) => [name, file]));
  page.models = Object.fromEntries(info.vocabularies.map(([name, , model]) => [name, model]));
  const chosen = $("copy").value || page.chosenCopy;
  $("copy").replaceChildren(...info.names.map((name) => new Option(name, name)));
  $("copy").value = info.names.includes(chosen) ? chosen : "lookup";
  $("copy").disabled = false;
  for (const radio of document.querySelectorAll("input[name=kind]")) radio.disabled = false;
  document.body.dataset.ready = "yes";
  show.now = true;
  show();  // the view first, and the figure and the copy panel after it
  if (!page.sourcePending) showSource();
}

function startWorker(saying) {
  worker?.terminate();
  page.python = null;
  Object.assign(vocabs, { loaded: false, failed: {}, asked: null });  // a fresh Python has none
  page.restarting = Boolean(saying);
  if (saying) say(saying, "busy");
  try {
    // A blob: worker takes this page's Content-Security-Policy; worker.js from this
    // folder is all it imports, and the policy then governs every script it loads.
    const script = new URL("worker.js", location.href).href;
    const boot = new Blob([`import ${JSON.stringify(script)};`], { type: "text/javascript" });
    worker = new Worker(URL.createObjectURL(boot), { type: "module" });
  } catch (error) {
    failed({ what: "Pyodide", url: "worker.js", detail: error.message });
    return;
  }
  const mine = worker;
  const ended = (why) => {  // the worker closed or failed, on its own
    if (mine !== worker || page.failed) return;
    if (!page.python) {
      failed({ what: "Pyodide", url: new URL("worker.js", location.href).href,
               detail: `the page's worker did not start (${why})` });
    } else {
      stopped(busy, why, "ended");
    }
  };
  // A worker that closes says nothing: it holds a Web Lock, which the page gets once it
  // has ended. (No Web Locks outside https and localhost: there, RUN_LIMIT_MS catches it,
  // and the page says it cannot tell a slow view from a Python that stopped.)
  const lock = navigator.locks && `tokembed-${crypto.randomUUID()}`;
  page.watched = false;  // until the worker holds the lock
  mine.onmessage = ({ data }) => {
    if (mine !== worker || page.failed) return;
    news.heard = performance.now();
    if (data.kind === "progress") progress(data);
    else if (data.kind === "ready") ready(data.info);
    else if (data.kind === "failed") failed(data);
    else if (data.kind === "part") part(data);
    else if (data.kind === "result") answered(data);
    else if (data.kind === "vocab-bytes") vocabBytes(data);
    else if (data.kind === "vocabularies") vocabAnswered(data);
    else if (data.kind === "held") {
      page.watched = true;
      navigator.locks.request(lock, () => ended("its worker closed"));
    }
  };
  mine.onerror = (event) => {
    event.preventDefault?.();
    ended(`its worker failed: ${event.message || "no reason given"}`);
  };
  mine.postMessage({ kind: "start", pyodide: page.pyodide, lock,
                     source: new URL("../tokembed.py", location.href).href });
  watchLoading();
  mark("worker");
  settle();
}

// Start-up runs in pieces, each a task of its own, so that no one task holds the page
// on a busy machine: Python first, as it takes longest; then what the page shows.
async function start() {
  mark("script");
  $("stalled").remove();  // the HTML's notice for a page whose script never ran
  page.lesson = $("output").textContent;  // the HTML's copy of the lesson's output
  readState();
  const chosen = pyodideFolder();
  page.pyodide = chosen.folder ?? PYODIDE;
  page.pyodideAsGiven = chosen.asGiven;
  page.sourcePending = true;
  const local = location.protocol === "file:";
  if (!local && chosen.refused === undefined) {
    ownPolicy();
    say(`Loading Python (Pyodide ${VERSION}, about 12 MB, once) and tokembed.py, side by ` +
        "side …", "busy");
    startWorker("");
  }
  await pause();
  wait($("source"), "The copy panel fills once Python has loaded.");
  wire();
  show.now = true;
  show();
  await pause();
  showSource();
  if (local) {
    fail("file", "This page is open as a file, and a browser starts no Web Worker from " +
                 "a file, so Python cannot run here.");
    help(["Serve the clone's folder instead: in the clone, run", { code: SERVE },
          "and open http://127.0.0.1:8000/.docs/index.html."]);
  } else if (chosen.refused !== undefined) {
    fail("refused", `This link asks for Pyodide from “${chosen.refused}”, which is neither ` +
                    "a folder inside this page's own folder nor the pinned jsDelivr copy, so " +
                    "the page did not load it: only this page's own code runs here.");
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
  }
}

// A moment for the browser to draw and to answer a click, between two pieces of work
function pause() {
  if (globalThis.scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {  // a message, which no hidden tab holds back as a timer
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  });
}

function wire() {
  $("vocab").addEventListener("input", () => {
    Object.assign(vocabs, { unknown: "", missing: "" });  // the learner chose: a link's is past
  });
  for (const [name] of OPTIONS) $(name).addEventListener("input", show);
  $("text").addEventListener("input", () => {
    state.text = $("text").value;
    if (state.text.length > BOX_MAX) showText();  // pasted: too long to edit here
    show();
  });
  $("text-edit").addEventListener("click", () => {
    state.text = $("text").value;  // the start the box shows, to edit
    showText();
    $("text").focus();
    show.now = true;
    show();
  });
  $("view").addEventListener("change", () => {
    page.viewProblem = "";
    show();
  });
  for (const form of document.querySelectorAll("form")) {
    form.addEventListener("submit", (event) => event.preventDefault());
  }
  $("words").addEventListener("click", (event) => {
    if (event.target.matches("button.word")) addWord(event.target.value);
  });
  $("copy").addEventListener("change", showSource);
  for (const radio of document.querySelectorAll("input[name=kind]")) {
    radio.addEventListener("change", showSource);
  }
  $("clipboard").addEventListener("click", () => copyText($("source").textContent, $("copied")));
  $("command-copy").addEventListener("click", () =>
    copyText(page.shown.command, $("command-note")));
  $("save").addEventListener("click", saveOutput);
  $("retry").addEventListener("click", () => {
    forget(JSON.stringify(page.retry ?? []));
    show.now = true;
    show();
  });
  linkRows();
  addEventListener("resize", () => {
    for (const box of document.querySelectorAll(".scroller, #output.table")) cue(box);
  });
}

start();
