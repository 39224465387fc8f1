"""The lesson page's URL states for .ci/page.mjs, with what python3 prints for each:
python3 .ci/page_states.py FOLDER writes FOLDER/states.json and FOLDER/page-N.*"""
import json, os, subprocess, sys
work = sys.argv[1]
STATES = [  # (URL query, argv, the command the page shows, the copy panel's command)
    ("", [], "python3 tokembed.py", None),
    ("text=my+order+is+late", ["my", "order", "is", "late"],
     "python3 tokembed.py my order is late", None),
    ("text=my+order+order&view=table&seed=3&d_model=6",
     ["--table", "my", "order", "order", "--seed", "3", "--d-model", "6"],
     "python3 tokembed.py --table my order order --seed 3 --d-model 6", None),
    ("text=my&view=one-hot&seed=43", ["--one-hot", "my", "--seed", "43"],
     "python3 tokembed.py --one-hot my --seed 43", None),
    ("text=%3Cpad%3E+late&padding=-1", ["<pad>", "late", "--padding-idx", "-1"],
     "python3 tokembed.py '<pad>' late --padding-idx -1", None),
    ("text=50257+768&view=params", ["--params", "50257", "768"],
     "python3 tokembed.py --params 50257 768", None),
    ("text=%3Cpad%3E+late&view=learn&d_model=9&padding=0",
     ["--learn", "<pad>", "late", "--d-model", "9", "--padding-idx", "0"],
     "python3 tokembed.py --learn '<pad>' late --d-model 9 --padding-idx 0", None),
    ("view=train&seed=7", ["--train", "--seed", "7"], "python3 tokembed.py --train --seed 7",
     None),
    ("view=context", ["--context"], "python3 tokembed.py --context", None),
    ("text=please+return+the+shoes&view=search",
     ["--search", "please", "return", "the", "shoes"],
     "python3 tokembed.py --search please return the shoes", None),
    ("text=my+order+order&view=positions&d_model=8",
     ["--positions", "my", "order", "order", "--d-model", "8"],
     "python3 tokembed.py --positions my order order --d-model 8", None),
    ("text=Refund+my+order", ["Refund", "my", "order"],
     "python3 tokembed.py Refund my order", None),
    ("copy=cosine&kind=exercise", [], "python3 tokembed.py",
     "python3 tokembed.py --exercise cosine"),
    ("copy=lookup&kind=checked", [], "python3 tokembed.py",
     "python3 tokembed.py --copy lookup --checked"),
]
states = []
for k, (query, argv, command, copy) in enumerate(STATES):
    done = subprocess.run([sys.executable, "tokembed.py", *argv], capture_output=True)
    name = os.path.join(work, f"page-{k}")
    if done.returncode == 0:
        open(name + ".out", "wb").write(done.stdout)
    else:
        open(name + ".err", "wb").write(done.stderr)
    view = argv[0] if argv and argv[0].startswith("--") else ""
    if view in ("", "--table", "--one-hot") and done.returncode == 0:
        subprocess.run([sys.executable, "tokembed.py", *argv, "--svg", name + ".svg"],
                       capture_output=True, check=True)
    if copy:
        open(name + ".copy", "wb").write(subprocess.run(
            [sys.executable, "tokembed.py", *copy.split()[2:]], capture_output=True,
            check=True).stdout)
    states.append({"query": query, "command": command, "copy": copy})
json.dump(states, open(os.path.join(work, "states.json"), "w"))
