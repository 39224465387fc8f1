"""The lesson page's URL states for .ci/page.mjs, with what python3 prints for each:
python3 .ci/page_states.py FOLDER writes FOLDER/states.json and FOLDER/page-N.*

Each state is a URL query and the command the page must show for it. The
reference is what python3 prints when that very command is run (split as a POSIX
shell splits it), so the page's "same on your machine" line is checked too.
FOLDER/big.json and FOLDER/big-N.* are the same for the longest answers, most of
them too long to show whole. Also written: FOLDER/views.json (tokembed.VIEWS:
flag, takes, help), FOLDER/vocabularies.json (each real vocabulary's file name)
and FOLDER/lesson.out (the lesson's output, which the page's HTML holds before
Python).

python3 runs as a learner's does, with the cache in ~/.cache/tokembed, as the page
keeps it in Pyodide, so that both print the same path: HOME is a folder of its own,
and TOKEMBED_CACHE, XDG_CACHE_HOME and LOCALAPPDATA are unset. For the states, that
cache is empty, as the page's is when its folder serves no vocabulary; for
FOLDER/vocab.json and FOLDER/vocab-N.out (and .svg), the states of a page whose .docs/vocab/
serves OpenAI's three files, it holds the files of the folder TOKEMBED_CACHE names (CI's
step 5 fetches them). Without them, vocab.json is null. Llama 3's file, which nothing
fetches, is served too if that folder has it, and its states are added; vocabularies.json
says which are served.
"""
import json, os, shlex, subprocess, sys, tempfile
sys.path.insert(0, os.getcwd())
import tokembed  # noqa: E402  (from the clone CI runs in)

work = sys.argv[1]
CACHE = os.environ.get("TOKEMBED_CACHE")  # the real vocabularies' files, if there
FILES = {name: os.path.basename(v.file) for name, v in tokembed.VOCABULARIES.items()}
STATES = [  # (URL query, the command the page shows, the copy panel's command)
    ("", "python3 tokembed.py", None),
    ("text=my+order+is+late", "python3 tokembed.py -- my order is late", None),
    ("text=my+order+order&view=table&seed=3&d_model=6",
     "python3 tokembed.py --table --seed 3 --d-model 6 -- my order order", None),
    ("text=my&view=one-hot&seed=43", "python3 tokembed.py --one-hot --seed 43 -- my", None),
    ("text=%3Cpad%3E+late&padding=-1",
     "python3 tokembed.py --padding-idx -1 -- '<pad>' late", None),
    ("text=50257+768&view=params", "python3 tokembed.py --params -- 50257 768", None),
    ("text=%3Cpad%3E+late&view=learn&d_model=9&padding=0",
     "python3 tokembed.py --learn --d-model 9 --padding-idx 0 -- '<pad>' late", None),
    ("view=train&seed=7", "python3 tokembed.py --train --seed 7", None),
    ("view=context&text=my+order", "python3 tokembed.py --context", None),
    ("text=please+return+the+shoes&view=search",
     "python3 tokembed.py --search -- please return the shoes", None),
    ("text=my+order+order&view=positions&d_model=8",
     "python3 tokembed.py --positions --d-model 8 -- my order order", None),
    ("text=my+order&view=table&d_model=16",
     "python3 tokembed.py --table --d-model 16 -- my order", None),
    ("text=Refund+my+order", "python3 tokembed.py -- Refund my order", None),
    ("copy=cosine&kind=exercise", "python3 tokembed.py", "python3 tokembed.py --exercise cosine"),
    ("copy=lookup&kind=checked", "python3 tokembed.py",
     "python3 tokembed.py --copy lookup --checked"),
    # words are words: nothing the learner types becomes an option, or reads stdin
    ("text=-", "python3 tokembed.py -- -", None),
    ("text=--help", "python3 tokembed.py -- --help", None),
    ("text=--svg+notes.md+my", "python3 tokembed.py -- --svg notes.md my", None),
    ("text=--copy+y&view=table", "python3 tokembed.py --table -- --copy y", None),
    ("text=it%27s+my+order", "python3 tokembed.py -- 'it'\\''s' my order", None),
    # a bad number in the URL gets the CLI's own error, not silence
    ("seed=abc", "python3 tokembed.py --seed abc", None),
    ("view=table&d_model=0", "python3 tokembed.py --table --d-model 0", None),
    ("padding=x&text=late", "python3 tokembed.py --padding-idx x -- late", None),
    # --tokens reads its TEXT whole: a leading space, and two spaces, are kept
    ("text=+refund+my+order&view=tokens&merges=20",
     "python3 tokembed.py --tokens --merges 20 -- ' refund my order'", None),
    ("text=refund++my+order&view=tokens",
     "python3 tokembed.py --tokens -- 'refund  my order'", None),
    ("seed=--help", "python3 tokembed.py --seed --help", None),
    # the View select's own values work in the URL too
    ("view=--table&text=my+order", "python3 tokembed.py --table -- my order", None),
    # a link's line breaks are kept: words for a WORDS view, the very text for --tokens
    ("text=my%0Aorder&view=table", "python3 tokembed.py --table -- my order", None),
    ("view=tokens&text=a%0Ab", "python3 tokembed.py --tokens -- 'a\nb'", None),
    # quoted so that zsh (=word is a command's path), fish and bash read the same
    ("view=tokens&text=%3Dls", "python3 tokembed.py --tokens -- '=ls'", None),
    ("text=%3Dorder", "python3 tokembed.py -- '=order'", None),
    ("view=tokens&text=it%27s+a%5Cb", "python3 tokembed.py --tokens -- 'it'\\''s a'\\\\'b'",
     None),
    # an emoji is 4 byte tokens, each part of a character
    ("view=tokens&text=refund+my+%F0%9F%98%89+order",
     "python3 tokembed.py --tokens -- 'refund my \U0001F609 order'", None),
    # past d_model 64 there is no figure, and the page says why
    ("view=table&d_model=100&text=my+order",
     "python3 tokembed.py --table --d-model 100 -- my order", None),
    # the views that split --positions and --tokens
    ("view=rope&text=my+order+order", "python3 tokembed.py --rope -- my order order", None),
    ("view=batch&text=refund+my+order%2C+my+order+is+late",
     "python3 tokembed.py --batch -- refund my order, my order is late", None),
    ("view=bpe&merges=20", "python3 tokembed.py --bpe --merges 20", None),
    # --tokens: a row a distinct token; a character several byte tokens make; more
    # distinct tokens than the table lists, and IDs that run on in lines
    ("view=tokens&text=na%C3%AFve+caf%C3%A9", "python3 tokembed.py --tokens -- 'naïve café'",
     None),
    ("view=tokens&text=Le+caf%C3%A9+est+tr%C3%A8s+bon%2C+n%27est-ce+pas+%3F+Gr%C3%BC%C3%9Fe+aus"
     "+M%C3%BCnchen.",
     "python3 tokembed.py --tokens -- 'Le café est très bon, n'\\''est-ce pas ? Grüße aus "
     "München.'", None),
    ("view=tokens&text=%E7%A7%81%E3%81%AF%E3%82%B3%E3%83%BC%E3%83%92%E3%83%BC%E3%81%8C%E5%A5%BD"
     "%E3%81%8D%E3%81%A7%E3%81%99%E3%80%82",
     "python3 tokembed.py --tokens -- '私はコーヒーが好きです。'", None),
    ("view=tokens&text=my+order&d_model=16", "python3 tokembed.py --tokens --d-model 16 -- "
     "'my order'", None),
    # --languages: the learner's text is a row of its own, and its chart is the figure;
    # with no vocabulary served, the vocabularies' columns are -
    ("view=languages&text=my+order", "python3 tokembed.py --languages -- 'my order'", None),
    ("view=languages&merges=20", "python3 tokembed.py --languages --merges 20", None),
    ("view=languages&text=O%C3%B9+est+ma+commande+%3F%0AMerci.&merges=50",
     "python3 tokembed.py --languages --merges 50 -- 'Où est ma commande ?\nMerci.'", None),
    # --trace: a word's joins, then its tokens, painted and linked as --tokens' are; it
    # takes no --seed or --d-model, so a link's are not run
    ("view=trace", "python3 tokembed.py --trace", None),
    ("view=trace&text=lately&merges=30", "python3 tokembed.py --trace --merges 30 -- lately",
     None),
    ("view=trace&text=refund+my+order&seed=7&d_model=8",
     "python3 tokembed.py --trace -- 'refund my order'", None),
    ("view=trace&text=caf%C3%A9+%F0%9F%91%8D+ok+ok", "python3 tokembed.py --trace -- "
     "'café 👍 ok ok'", None),
    ("view=trace&vocab=gpt2&text=refund", "python3 tokembed.py --trace -- refund", None),
    # a vocabulary this page's server does not have, or one that is no name, is not run
    ("view=tokens&vocab=o200k_base&text=refund+my+order",
     "python3 tokembed.py --tokens -- 'refund my order'", None),
    ("view=tokens&vocab=..%2F..%2Ftokembed.py&text=my",
     "python3 tokembed.py --tokens -- my", None),
]
# With .docs/vocab/ serving the three files: each as python3 prints it with them in its cache
VOCAB_STATES = [
    ("view=tokens&vocab=o200k_base&text=refund+my+order",
     "python3 tokembed.py --tokens --vocab o200k_base -- 'refund my order'"),
    ("view=languages", "python3 tokembed.py --languages"),
    ("view=tokens&vocab=gpt2&text=na%C3%AFve+caf%C3%A9",
     "python3 tokembed.py --tokens --vocab gpt2 -- 'naïve café'"),
    ("view=tokens&vocab=cl100k_base&text=%E7%A7%81%E3%81%AF%E3%82%B3%E3%83%BC%E3%83%92%E3%83%BC"
     "%E3%81%8C%E5%A5%BD%E3%81%8D%E3%81%A7%E3%81%99%E3%80%82&merges=20",
     "python3 tokembed.py --tokens --merges 20 --vocab cl100k_base -- "
     "'私はコーヒーが好きです。'"),
    # --vocab shows no rows: the page leaves out --seed and --d-model, which it refuses
    ("view=tokens&vocab=o200k_base&seed=7&d_model=8&text=my",
     "python3 tokembed.py --tokens --vocab o200k_base -- my"),
    ("view=trace&vocab=o200k_base&text=tokenization",
     "python3 tokembed.py --trace --vocab o200k_base -- tokenization"),
    ("view=languages&text=%E1%88%B0%E1%88%8B%E1%88%9D+my+order",
     "python3 tokembed.py --languages -- 'ሰላም my order'"),
]
LLAMA3_STATES = [  # if TOKEMBED_CACHE has Llama 3's file, which nothing fetches
    ("view=tokens&vocab=llama3&text=na%C3%AFve+caf%C3%A9+%E1%88%B0%E1%88%8B%E1%88%9D",
     "python3 tokembed.py --tokens --vocab llama3 -- 'naïve café ሰላም'"),
    ("view=trace&vocab=llama3&text=lately", "python3 tokembed.py --trace --vocab llama3 -- lately"),
]
WORDS = ("my", "order", "is", "late", "refund")
SIXTY = "+".join(WORDS * 12)
MANY = 130_000  # words of the longest link: one argument each
BIG = [  # (URL query, the command): answers too long to show whole, but the first
    # 10,000 x's: a long text, whose 10,000 IDs are shown whole, linked, and whose address
    # is longer than the page keeps
    ("view=tokens&d_model=48&text=" + "x" * 10_000,
     "python3 tokembed.py --tokens --d-model 48 -- " + "x" * 10_000),
    ("view=tokens&d_model=10000", "python3 tokembed.py --tokens --d-model 10000"),
    ("d_model=65536&text=" + SIXTY,
     "python3 tokembed.py --d-model 65536 -- " + " ".join(WORDS * 12)),
    ("view=table&d_model=65536", "python3 tokembed.py --table --d-model 65536"),
    ("text=" + "+".join(WORDS[k % 5] for k in range(MANY)),
     "python3 tokembed.py -- " + " ".join(WORDS[k % 5] for k in range(MANY))),
]
FIGURE_VIEWS = [flag or "" for flag, view in tokembed.VIEWS.items() if "--svg" in view.takes]


HOME = tempfile.mkdtemp()  # a learner's home: its cache, ~/.cache/tokembed, empty
SERVED = tempfile.mkdtemp()  # and one whose cache holds the real vocabularies
FETCHED = [name for name, v in tokembed.VOCABULARIES.items() if v.url]  # OpenAI's
HELD = [name for name, file in FILES.items() if CACHE and os.path.exists(os.path.join(CACHE, file))]
if set(FETCHED) <= set(HELD):
    os.mkdir(os.path.join(SERVED, ".cache"))
    os.symlink(os.path.abspath(CACHE), os.path.join(SERVED, ".cache", "tokembed"))
    VOCAB_STATES += LLAMA3_STATES if "llama3" in HELD else []
else:
    VOCAB_STATES, HELD = None, []
ENV = {key: value for key, value in os.environ.items()
       if key not in ("TOKEMBED_CACHE", "XDG_CACHE_HOME", "LOCALAPPDATA")}


def run(argv, home=HOME):
    return subprocess.run([sys.executable, "tokembed.py", *argv], capture_output=True,
                          env={**ENV, "COLUMNS": "80", "HOME": home}, stdin=subprocess.DEVNULL)


states = []
for k, (query, command, copy) in enumerate(STATES):
    argv = shlex.split(command)[2:]  # what the learner would paste
    done = run(argv)
    name = os.path.join(work, f"page-{k}")
    if done.returncode == 0:
        open(name + ".out", "wb").write(done.stdout)
    else:
        assert done.stderr.count(b"\n") == 1, (command, done.stderr)  # one line
        open(name + ".err", "wb").write(done.stderr)
    at = argv.index("--") if "--" in argv else len(argv)  # options before --
    view = next((arg for arg in argv[:at] if arg in tokembed.VIEWS), "")
    refused = None  # the figure tokembed.py will not draw, and why
    if view in FIGURE_VIEWS and done.returncode == 0:
        drawn = run(argv[:at] + ["--svg", "-"] + argv[at:])
        if drawn.returncode == 0:
            open(name + ".svg", "wb").write(drawn.stdout)
        else:
            refused = drawn.stderr.decode()
    if copy:
        open(name + ".copy", "wb").write(run(shlex.split(copy)[2:]).stdout)
    states.append({"query": query, "command": command, "copy": copy, "argv": argv,
                   "refused": refused})
json.dump(states, open(os.path.join(work, "states.json"), "w"), indent=1)
big = []
for k, (query, command) in enumerate(BIG):
    done = run(shlex.split(command)[2:])
    assert done.returncode == 0, (command[:80], done.stderr)
    open(os.path.join(work, f"big-{k}.out"), "wb").write(done.stdout)
    big.append({"query": query, "command": command})
json.dump(big, open(os.path.join(work, "big.json"), "w"))
vocab = None
if VOCAB_STATES is not None:
    vocab = []
    for k, (query, command) in enumerate(VOCAB_STATES):
        argv = shlex.split(command)[2:]
        done = run(argv, SERVED)
        assert done.returncode == 0, (command, done.stderr)
        open(os.path.join(work, f"vocab-{k}.out"), "wb").write(done.stdout)
        if argv[0] in FIGURE_VIEWS:  # --languages' chart, with the vocabularies' bars
            at = argv.index("--") if "--" in argv else len(argv)
            drawn = run(argv[:at] + ["--svg", "-"] + argv[at:], SERVED)
            assert drawn.returncode == 0, (command, drawn.stderr)
            open(os.path.join(work, f"vocab-{k}.svg"), "wb").write(drawn.stdout)
        vocab.append({"query": query, "command": command, "argv": argv})
json.dump(vocab, open(os.path.join(work, "vocab.json"), "w"))
json.dump({"files": FILES, "cache": CACHE if vocab is not None else None, "served": HELD},
          open(os.path.join(work, "vocabularies.json"), "w"))
json.dump([[flag or "", list(view.takes), view.help] for flag, view in tokembed.VIEWS.items()],
          open(os.path.join(work, "views.json"), "w"))
open(os.path.join(work, "lesson.out"), "wb").write(run([]).stdout)
