"""The lesson page's URL states for .ci/page.mjs, with what python3 prints for each:
python3 .ci/page_states.py FOLDER writes FOLDER/states.json and FOLDER/page-N.*

Each state is a URL query and the command the page must show for it. The
reference is what python3 prints when that very command is run (split as a POSIX
shell splits it), so the page's "same on your machine" line is checked too.
FOLDER/big.json and FOLDER/big-N.* are the same for the answers too long to show
whole, each with the start the page shows of it. Also written: FOLDER/views.json
(tokembed.VIEWS: flag, takes, help) and FOLDER/lesson.out (the lesson's output,
which the page's HTML holds before Python).
"""
import json, os, shlex, subprocess, sys
sys.path.insert(0, os.getcwd())
import tokembed  # noqa: E402  (from the clone CI runs in)

work = sys.argv[1]
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
    # --languages takes no text: the page runs it without, and with no vocabulary served,
    # its columns of them are -
    ("view=languages&text=my+order", "python3 tokembed.py --languages", None),
    ("view=languages&merges=20", "python3 tokembed.py --languages --merges 20", None),
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


def run(argv):
    return subprocess.run([sys.executable, "tokembed.py", *argv], capture_output=True,
                          env={**os.environ, "COLUMNS": "80"}, stdin=subprocess.DEVNULL)


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
json.dump([[flag or "", list(view.takes), view.help] for flag, view in tokembed.VIEWS.items()],
          open(os.path.join(work, "views.json"), "w"))
open(os.path.join(work, "lesson.out"), "wb").write(run([]).stdout)
