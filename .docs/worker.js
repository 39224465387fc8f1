// tokembed's Python, off the page's main thread: a module Web Worker that loads
// Pyodide and tokembed.py side by side, then runs one command line per message.
// The page (page.js) only sends argv lists and shows the text that comes back.
// It starts from a blob: URL that imports this file, so the page's
// Content-Security-Policy binds it, and it is given absolute URLs.
//
// page -> worker  {kind: "start", pyodide: FOLDER_URL, source: TOKEMBED_PY_URL}
//                 {kind: "run", id, argv: [str, ...]}          one at a time
// worker -> page  {kind: "progress", step, text, bytes, at}     while loading
//                 {kind: "ready", info: {...}, at}              Python runs
//                 {kind: "failed", what, url, detail}           loading failed
//                 {kind: "result", id, status, out, err, ms}   one per run
// `at` is a wall-clock time (ms since 1970), which the page reads on its own clock.

// Pyodide may come only from here, or from a folder on this site: the page has
// checked that already, and this checks it again, so that no other code can run.
const PYODIDE = "https://cdn.jsdelivr.net/npm/pyodide@314.0.7/";
const STALL_MS = 30_000;  // a fetch that sends nothing for this long has failed

const now = () => performance.timeOrigin + performance.now();
const post = (message) => self.postMessage({ ...message, at: now() });
let python = null;  // a promise of Python's run(argv) function

self.onmessage = async ({ data }) => {
  if (data.kind === "start" && python === null) {
    python = start(data.pyodide, data.source);
    python.catch(() => {});  // start() has told the page already
  } else if (data.kind === "run") {
    let run;
    try {
      run = await python;
    } catch {
      return;
    }
    const started = performance.now();
    let answer;
    try {
      const printed = run(data.argv);
      const [status, out, err] = printed.toJs();
      printed.destroy();  // a proxy of Python's tuple, no longer needed
      answer = { status, out, err };
    } catch (error) {  // a bug of ours, not the learner's: show its traceback
      answer = { status: -1, out: "", err: String(error.message || error) };
    }
    post({ kind: "result", id: data.id, ...answer, ms: performance.now() - started });
  }
};

function allowed(folder) {
  try {
    const url = new URL(folder);
    return url.href === PYODIDE ||
      (url.origin === self.location.origin && /^https?:$/.test(url.protocol));
  } catch {
    return false;
  }
}

// Count the bytes of every fetch Pyodide makes, to say how far loading has come,
// and to give up on a fetch that stalls. The response keeps its headers, so that
// WebAssembly's streaming compile still sees application/wasm.
let loaded = 0;
const plainFetch = self.fetch.bind(self);
function countingFetch(input, init) {
  const name = String(input.url ?? input).split("?")[0].split("/").pop();
  const stall = new AbortController();
  let timer = setTimeout(() => stall.abort(), STALL_MS);
  const still = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall.abort(), STALL_MS);
  };
  return plainFetch(input, { ...init, signal: stall.signal }).then((response) => {
    still();
    if (!response.body) {
      clearTimeout(timer);
      return response;
    }
    const counted = response.body.pipeThrough(new TransformStream({
      transform(chunk, stream) {
        loaded += chunk.byteLength;
        still();
        post({ kind: "progress", step: "bytes", text: name, bytes: loaded });
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
    throw stall.signal.aborted ? new Error(`nothing arrived for ${STALL_MS / 1000} s`)
                               : error;
  });
}

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
  post({ kind: "progress", step: "loader", text: "pyodide.mjs", bytes: loaded });
  self.fetch = countingFetch;
  try {
    const pyodide = await loadPyodide({ indexURL: folder });
    post({ kind: "progress", step: "python", text: "Python", bytes: loaded });
    return pyodide;
  } catch (error) {
    throw { what: "Pyodide", url: folder, detail: String(error.message || error) };
  } finally {
    self.fetch = plainFetch;
  }
}

async function start(folder, sourceURL) {
  try {
    if (!allowed(folder)) {
      throw { what: "Pyodide", url: folder,
              detail: "it is neither the pinned jsDelivr copy nor on this site" };
    }
    // tokembed.py is fetched while Pyodide loads, not after it
    const source = fetchSource(sourceURL);
    source.catch(() => {});
    const pyodide = await loadPython(folder);
    pyodide.FS.writeFile("/home/pyodide/tokembed.py", await source);
    const run = pyodide.runPython(PROGRAM);
    const info = Object.fromEntries(pyodide.runPython("about()").toJs());
    post({ kind: "ready", info });
    return run;
  } catch (failure) {
    post({ kind: "failed", what: failure.what ?? "Python", url: failure.url ?? "",
           detail: failure.detail ?? String(failure.message || failure) });
    throw failure;
  }
}

// The Python side: run a command line as the shell would, capturing what it prints.
const PROGRAM = `
import contextlib, io, os, sys
sys.path.insert(0, "/home/pyodide")
os.environ["COLUMNS"] = "80"  # --help wraps as it does in an 80-column terminal
import tokembed

def run(argv):
    """Run tokembed's command line; return its exit status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = tokembed.main(list(argv))
    return status, out.getvalue(), err.getvalue()

def about():
    """What the page needs to know: each view, the vocabularies, the names to copy."""
    corpus = sorted({word for text in tokembed.CORPUS for word in text.split()})
    return [
        ("version", tokembed.__version__),
        ("python", "%d.%d.%d" % sys.version_info[:3]),
        ("views", [(flag or "", list(view.takes)) for flag, view in tokembed.VIEWS.items()]),
        ("help", [(flag or "", view.help) for flag, view in tokembed.VIEWS.items()]),
        ("vocab", list(tokembed.VOCAB)), ("corpus", corpus), ("text", tokembed.TEXT),
        ("names", [n for n in tokembed.__all__ if n not in ("snippet", "exercise")]),
    ]

run
`;
