// tokembed's Python, off the page's main thread: a module Web Worker that loads
// Pyodide and tokembed.py side by side, then runs one command line per message.
// The page (page.js) only sends argv lists and shows the text that comes back.
// It starts from a blob: URL that imports this file, so the page's
// Content-Security-Policy binds it, and it is given absolute URLs.
//
// page -> worker  {kind: "start", pyodide: FOLDER_URL, source: TOKEMBED_PY_URL}
//                 {kind: "run", id, argv: [str, ...], tokens: null | {text, merges, vocab, rows}}
//                 {kind: "vocabularies", id, load}   which real vocabularies the page's
//                                                    folder serves; and, if load, read them
// worker -> page  {kind: "progress", step, text, bytes, at}     each step of loading
//                 {kind: "alive", step, at}                     each second it loads
//                 {kind: "ready", info: {...}, at}              Python runs
//                 {kind: "failed", what, url, detail}           loading failed
//                 {kind: "held", at}                            it holds the lock `lock`
//                 {kind: "part", id, out, at}                   a piece of a long answer,
//                 {kind: "result", id, status, out, err, ms, tokens, broken}   its last
//                 {kind: "vocab-bytes", id, bytes, total}       a vocabulary file arrives
//                 {kind: "vocabularies", id, served: {name: bytes}, loaded: [name, ...],
//                  failed: {name: {damaged: true} | {why}}}
// `at` is a wall-clock time (ms since 1970), which the page reads on its own clock.
// A step is "bytes" (more of a file arrived), "file" (one arrived whole), "source",
// "loader", "compile", "compiled", "python", "import"; "alive" says that the worker
// is waiting, not stuck, between two steps that take a while on a slow machine.
// `tokens`, asked for with --tokens and --trace, is where each token lies in the text
// (`rows`: whether the view shows each token's row of a table, which the page says); `broken`
// says that Pyodide itself failed, so that the page starts a fresh worker. An answer of
// more than PART characters comes in parts, each a message of its own, cut after a line:
// the page takes each in a task of its own, where one message would hold it for as long
// as the whole takes to copy in. While this worker runs it holds the Web Lock named in
// "start", which the page asks for too: the page gets it when the worker has ended.
// The real vocabularies (--tokens and --trace --vocab NAME, --languages' columns) are read from
// the page's own folder, vocab/, if a deployer put their files there: see vocabularies().

// Pyodide may come only from the pinned CDN folder, or from a folder inside the
// page's own folder (this file's): the page has checked that already, and this
// checks it again, so that no other code can run.
const PYODIDE = "https://cdn.jsdelivr.net/npm/pyodide@314.0.7/";
const HOME = new URL(".", import.meta.url).href;  // the page's folder, .docs/
const STALL_MS = 30_000;  // a fetch that sends nothing for this long has failed
const ALIVE_MS = 1_000;
const PART = 1 << 20;  // characters: the page takes a message of 1 MB in a few ms

const now = () => performance.timeOrigin + performance.now();
const post = (message) => self.postMessage({ ...message, at: now() });
let python = null;  // a promise of Python's functions (run, spans) and the vocabularies' files
let step = "start";
const stepped = (name, text = name, bytes = loaded) => {
  step = name;
  post({ kind: "progress", step: name, text, bytes });
};

self.onmessage = async ({ data }) => {
  if (data.kind === "start" && python === null) {
    if (data.lock) navigator.locks.request(data.lock, () => {
      post({ kind: "held" });
      return new Promise(() => {});  // held until this worker ends
    });
    python = start(data.pyodide, data.source);
    python.catch(() => {});  // start() has told the page already
  } else if (data.kind === "run" || data.kind === "vocabularies") {
    let code;
    try {
      code = await python;
    } catch {
      return;
    }
    if (data.kind === "run") reply(data.id, run(code, data));
    else vocabularies(code, data);
  }
};

function reply(id, { out, ...rest }) {  // in parts of at most PART characters
  let at = 0;
  while (out.length - at > PART) {
    let end = out.lastIndexOf("\n", at + PART - 1) + 1;  // after the last whole line
    if (end <= at) end = at + PART;  // a line longer than a part: the page only joins them
    post({ kind: "part", id, out: out.slice(at, end) });
    at = end;
  }
  post({ kind: "result", id, ...rest, out: at ? out.slice(at) : out });
}

function run({ run: main, spans }, { argv, tokens }) {
  const started = performance.now();
  let answer;
  try {
    const printed = main(argv);
    const [status, out, err] = printed.toJs();
    printed.destroy();  // a proxy of Python's tuple, no longer needed
    answer = { status, out, err, tokens: null };
  } catch (error) {  // a bug of ours, or Pyodide's own failure: show what it said
    answer = { status: -1, out: "", err: String(error.message || error), tokens: null,
               broken: error?.constructor?.name !== "PythonError" };
  }
  if (answer.status === 0 && tokens) {
    try {
      answer.tokens = where(spans, tokens);
    } catch {
      // the text is shown as printed, unpainted
    }
  }
  return { ...answer, ms: performance.now() - started };
}

function where(spans, { text, merges, vocab, rows }) {  // each token's place in the text, or null
  const found = spans(text, merges ?? "", vocab ?? "");  // "": the default merges, no --vocab
  if (!found) return null;
  const [ids, starts, ends, whole, shown, alone] = found.toJs();
  found.destroy();
  return { text, ids, starts, ends, whole, shown, alone, rows };  // rows: of a table, shown
}

// The real vocabularies. A deployer may put their files in the page's folder, vocab/,
// each under the name tokembed.VOCABULARIES gives it (vocab.bpe, cl100k_base.tiktoken,
// o200k_base.tiktoken, llama3.tiktoken); nothing else is ever fetched, from anywhere (the
// page's Content-Security-Policy allows no other site either). When a view first needs
// to know, the worker looks for them (HEAD); when --vocab or --languages first runs, it
// reads them all, checks each by the SHA-256 tokembed pins (tiktoken's; Llama 3's), and
// writes it into TOKEMBED_CACHE's folder, where tokembed.py reads it as it reads
// ~/.cache/tokembed on a learner's machine.
const VOCAB = `${HOME}vocab/`;
const PLAIN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;  // a file's name: nothing above, nothing encoded
let looked = null, read = null;

async function vocabularies(code, { id, load }) {
  try {
    looked ??= lookFor(code.files);
    const served = await looked;
    const done = load ? await (read ??= readAll(code, served, id)) : { loaded: [], failed: {} };
    post({ kind: "vocabularies", id, served, ...done });
  } catch {  // a bug of ours: the page goes on as if its server had none
    post({ kind: "vocabularies", id, served: {}, loaded: [], failed: {} });
  }
}

async function lookFor(files) {  // {name: bytes, or 0 if the server does not say}
  const served = {};
  await Promise.all(files.map(async ([name, file]) => {
    if (!PLAIN.test(file)) return;
    try {
      const response = await plainFetch(VOCAB + file, { method: "HEAD", cache: "no-cache",
        signal: AbortSignal.timeout(STALL_MS) });
      // a site that answers every address with its start page serves no vocabulary
      if (response.ok && !/^text\/html/i.test(response.headers.get("content-type") ?? "")) {
        served[name] = Number(response.headers.get("content-length")) || 0;
      }
    } catch {
      // not there, or not answered: not offered
    }
  }));
  return served;
}

async function readAll({ files, write, keep }, served, id) {
  const loaded = [], failed = {};
  const total = Object.values(served).reduce((sum, n) => sum + n, 0);
  let bytes = 0, said = 0;
  const arrived = (n) => {
    bytes += n;
    if (performance.now() - said > 100) {  // ten words a second at most
      said = performance.now();
      post({ kind: "vocab-bytes", id, bytes, total });
    }
  };
  await Promise.all(files.map(async ([name, file, sha256, path]) => {
    if (!(name in served) || !PLAIN.test(file)) return;
    try {
      const data = await fetchWhole(VOCAB + file, arrived);
      // checked by Python's hashlib, which every page has: crypto.subtle is only in a
      // secure context, not on plain http from another machine (a teacher's laptop)
      write(`${path}.part`, data);
      if (keep(`${path}.part`, path, sha256)) loaded.push(name);
      else failed[name] = { damaged: true };
    } catch (error) {
      failed[name] = { why: String(error.message || error) };
    }
  }));
  post({ kind: "vocab-bytes", id, bytes, total });
  return { loaded, failed };
}

async function fetchWhole(url, arrived) {  // its bytes; it fails if nothing comes for STALL_MS
  const stall = new AbortController();
  let timer = setTimeout(() => stall.abort(), STALL_MS);
  try {
    const response = await plainFetch(url, { cache: "no-cache", signal: stall.signal });
    if (!response.ok) {
      throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
    }
    const chunks = [], reader = response.body.getReader();
    let size = 0;
    for (let got = await reader.read(); !got.done; got = await reader.read()) {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(), STALL_MS);
      chunks.push(got.value);
      size += got.value.byteLength;
      arrived(got.value.byteLength);
    }
    const data = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      data.set(chunk, at);
      at += chunk.byteLength;
    }
    return data;
  } catch (error) {
    throw stall.signal.aborted ? new Error(`nothing arrived for ${STALL_MS / 1000} s`) : error;
  } finally {
    clearTimeout(timer);
  }
}

// Pyodide may come from the CDN, or from a folder inside this one: names of letters,
// digits, ".", "_" and "-", none starting with "."; nothing encoded, nothing above.
function allowed(folder) {
  if (folder === PYODIDE) return true;
  if (typeof folder !== "string" || !folder.startsWith(HOME)) return false;
  return /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)+$/.test(folder.slice(HOME.length));
}

// Count the bytes of every fetch Pyodide makes, to say how far loading has come,
// and to give up on a fetch that stalls. The response keeps its headers, so that
// WebAssembly's streaming compile still sees application/wasm. A fetch that fails (an
// answer other than 200, a stall, a lost connection) ends loading at once, naming its
// file: Pyodide only logs "wasm instantiation failed!" for pyodide.asm.wasm, and its
// loadPyodide() never settles, so the page would hear nothing until its own watchdog.
let loaded = 0, lastBytes = 0;
let fetchFailed = () => {};  // while Pyodide loads: reject loading, with what and where
const plainFetch = self.fetch.bind(self);
function countingFetch(input, init) {
  const url = String(input.url ?? input), name = url.split("?")[0].split("/").pop();
  const failed = (detail) => fetchFailed({ what: "Pyodide", url: url.split("?")[0], detail });
  const stall = new AbortController();
  stall.signal.addEventListener("abort", () => failed(`nothing arrived for ${STALL_MS / 1000} s`));
  let timer = setTimeout(() => stall.abort(), STALL_MS);
  const still = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall.abort(), STALL_MS);
  };
  return plainFetch(input, { ...init, signal: stall.signal }).then((response) => {
    still();
    if (!response.ok) {
      clearTimeout(timer);
      failed(`the server answered ${response.status} ${response.statusText}`.trim());
      return response;
    }
    if (!response.body) {
      clearTimeout(timer);
      return response;
    }
    const counted = response.body.pipeThrough(new TransformStream({
      transform(chunk, stream) {
        loaded += chunk.byteLength;
        still();
        if (performance.now() - lastBytes > 100) {  // ten words a second at most
          lastBytes = performance.now();
          post({ kind: "progress", step: "bytes", text: name, bytes: loaded });
        }
        stream.enqueue(chunk);
      },
      flush() {
        clearTimeout(timer);
        post({ kind: "progress", step: "file", text: name, bytes: loaded });
      },
    }));
    return new Response(counted, { status: response.status,
                                   statusText: response.statusText,
                                   headers: response.headers });
  }, (error) => {
    clearTimeout(timer);
    if (!stall.signal.aborted) failed(String(error.message || error));
    throw stall.signal.aborted ? new Error(`nothing arrived for ${STALL_MS / 1000} s`)
                               : error;
  });
}

// WebAssembly compiles off this thread, and can take many seconds on a slow
// machine: say when it starts and ends, so that the page knows why it waits.
const plain = { instantiate: WebAssembly.instantiate,
                instantiateStreaming: WebAssembly.instantiateStreaming };
function announceCompiles() {
  for (const name of Object.keys(plain)) {
    WebAssembly[name] = function (...args) {
      const big = name === "instantiateStreaming" || !(args[0] instanceof WebAssembly.Module);
      if (big) stepped("compile", "Python's WebAssembly");
      const made = plain[name].apply(WebAssembly, args);
      if (big) made.then(() => stepped("compiled", "Python's WebAssembly"), () => {});
      return made;
    };
  }
}
const quietCompiles = () => Object.assign(WebAssembly, plain);

async function fetchSource(url) {
  let response;
  try {
    response = await plainFetch(url, { signal: AbortSignal.timeout(STALL_MS),
                                       cache: "no-cache" });
  } catch (error) {
    throw { what: "tokembed.py", url, detail: error.name === "TimeoutError"
      ? `it did not arrive within ${STALL_MS / 1000} s` : String(error.message || error) };
  }
  if (!response.ok) {
    throw { what: "tokembed.py", url, detail: `the server answered ${response.status} ` +
            `${response.statusText}`.trim() };
  }
  const source = new Uint8Array(await response.arrayBuffer());
  post({ kind: "progress", step: "source", text: "tokembed.py", bytes: loaded });
  return source;
}

async function loadPython(folder) {
  let loadPyodide;
  try {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`it did not arrive within ${STALL_MS / 1000} s`)),
                         STALL_MS);
    });
    ({ loadPyodide } = await Promise.race([import(`${folder}pyodide.mjs`), late]));
    clearTimeout(timer);
  } catch (error) {
    throw { what: "Pyodide", url: `${folder}pyodide.mjs`,
            detail: String(error.message || error) };
  }
  stepped("loader", "pyodide.mjs");
  self.fetch = countingFetch;
  announceCompiles();
  try {
    const fetched = new Promise((_, reject) => {
      fetchFailed = reject;
    });
    const pyodide = await Promise.race([loadPyodide({ indexURL: folder }), fetched]);
    stepped("python", "Python");
    return pyodide;
  } catch (error) {
    throw error.what ? error : { what: "Pyodide", url: folder,
                                 detail: String(error.message || error) };
  } finally {
    fetchFailed = () => {};
    self.fetch = plainFetch;
    quietCompiles();
  }
}

async function start(folder, sourceURL) {
  const alive = setInterval(() => post({ kind: "alive", step }), ALIVE_MS);
  try {
    if (!allowed(folder)) {
      throw { what: "Pyodide", url: folder,
              detail: "it is neither the pinned jsDelivr copy nor a folder inside the page's" };
    }
    // tokembed.py is fetched while Pyodide loads, not after it; if that fails, the
    // page hears so at once, not once Pyodide has arrived
    const source = fetchSource(sourceURL);
    const sourceFailed = source.then(() => new Promise(() => {}), (failure) => {
      throw failure;
    });
    const pyodide = await Promise.race([loadPython(folder), sourceFailed]);
    pyodide.FS.writeFile("/home/pyodide/tokembed.py", await source);
    stepped("import", "tokembed.py");
    const code = Object.fromEntries(pyodide.runPython(PROGRAM).toJs());
    const info = Object.fromEntries(pyodide.runPython("about()").toJs());
    clearInterval(alive);
    post({ kind: "ready", info });
    const files = pyodide.runPython("vocabularies()").toJs();
    const write = (path, data) => {
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      pyodide.FS.writeFile(path, data);
    };
    return { ...code, files, write };  // and keep, from PROGRAM
  } catch (failure) {
    clearInterval(alive);
    post({ kind: "failed", what: failure.what ?? "Python", url: failure.url ?? "",
           detail: failure.detail ?? String(failure.message || failure) });
    throw failure;
  }
}

// The Python side: run a command line as the shell would, capturing what it prints;
// and, for --tokens and --trace, where each token lies in the text, with tokembed's own
// functions.
const PROGRAM = `
import contextlib, io, os, sys
sys.path.insert(0, "/home/pyodide")
os.environ["COLUMNS"] = "80"  # --help wraps as it does in an 80-column terminal
# The real vocabularies' files are kept where a learner's are by default, ~/.cache/tokembed
# (Pyodide's home is /home/pyodide), so that tokembed prints the same path. The worker
# writes there those that the page's folder serves; this page fetches nothing else.
os.environ["TOKEMBED_CACHE"] = os.path.join(os.path.expanduser("~"), ".cache", "tokembed")

import tokembed

def no_fetch(name, path, fetch=tokembed._fetch):
    """Let tokembed's one network door say that this page fetches nothing. urllib is
    imported here, only if a fetch is tried: at start-up it took half a second."""
    import urllib.request
    def refuse(url, *args, **kwargs):
        raise OSError("this page fetches nothing from the network")
    urllib.request.urlopen = refuse
    return fetch(name, path)
tokembed._fetch = no_fetch

def run(argv):
    """Run tokembed's command line; return its exit status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = tokembed.main(list(argv))
    return status, out.getvalue(), err.getvalue()

def spans(text, merges="", vocab=""):
    """Each token of text: its ID, where it starts and ends in the text (in the
    UTF-16 units a browser counts), whether it holds whole characters, how the token
    table writes it (as --tokens and --trace do), and what it decodes to alone; None if
    they do not add up. With vocab, a real vocabulary's tokens, by the fast path the
    views take, as the view has just read it."""
    if vocab:
        ranks, pattern = tokembed._vocabulary(vocab)[1:3]  # read once, kept
        spelled, ids, vocab, _ = tokembed._encoded(text, ranks, pattern)
        if spelled != text:  # SentencePiece's own spelling (a space added): other places
            return None
    else:
        n_merges = int(merges) if merges else tokembed.BPE_MERGES
        learned = tokembed.train_bpe(tokembed.CORPUS, n_merges)
        ids, vocab = tokembed.bpe_encode(text, learned), tokembed.token_bytes(learned)
    first, last, start, end = [], [], [], []  # for each byte of the text
    owner = []  # and the character it is part of
    unit = 0
    for char in text:
        size, width = len(char.encode("utf-8")), 2 if ord(char) > 0xFFFF else 1
        for k in range(size):
            first.append(k == 0)
            last.append(k == size - 1)
            start.append(unit)
            end.append(unit + width)
            owner.append(char)
        unit += width
    if sum(len(vocab[i]) for i in ids) != len(start):
        return None
    starts, ends, whole, at, where = [], [], [], 0, {}
    for i in ids:
        n = len(vocab[i])
        starts.append(start[at])
        ends.append(end[at + n - 1])
        whole.append(first[at] and last[at + n - 1])
        where.setdefault(i, at)
        at += n
    named = {i: (tokembed._token(vocab[i], owner, where[i]),
                 vocab[i].decode("utf-8", "replace")) for i in where}
    shown, alone = [named[i][0] for i in ids], [named[i][1] for i in ids]
    return ids, starts, ends, whole, shown, alone

def about():
    """What the page needs to know: each view, the vocabularies, the names to copy."""
    corpus = sorted({word for text in tokembed.CORPUS for word in text.split()})
    return [
        ("version", tokembed.__version__),
        ("python", "%d.%d.%d" % sys.version_info[:3]),
        ("views", [(flag or "", list(view.takes)) for flag, view in tokembed.VIEWS.items()]),
        ("help", [(flag or "", view.help) for flag, view in tokembed.VIEWS.items()]),
        ("vocab", list(tokembed.VOCAB)), ("corpus", corpus), ("text", tokembed.TEXT),
        ("vocabularies", [(name, os.path.basename(v.file), v.model)
                          for name, v in tokembed.VOCABULARIES.items()]),
        ("names", [n for n in tokembed.__all__ if n not in ("snippet", "exercise")]),
        ("figure_max", getattr(tokembed, "FIGURE_MAX", 64)),
    ]

def vocabularies():
    """Each real vocabulary: its name, its file's name, the SHA-256 tokembed pins, and
    where tokembed reads it."""
    return [(name, os.path.basename(v.file), v.sha256,
             os.path.join(os.environ["TOKEMBED_CACHE"], os.path.basename(v.file)))
            for name, v in tokembed.VOCABULARIES.items()]

def keep(part, path, sha256):
    """Keep a vocabulary's file, written to part, at path if it is the one its name
    stands for (by the SHA-256 tokembed pins); else remove it. Whether it was kept."""
    import hashlib  # here, not at the top: only a page that serves vocabularies needs it
    with open(part, "rb") as file:
        same = hashlib.sha256(file.read()).hexdigest() == sha256
    if same:
        os.replace(part, path)
    else:
        os.remove(part)
    return same

[("run", run), ("spans", spans), ("keep", keep)]
`;
