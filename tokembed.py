"""From tokens to embeddings: the lesson's code, one step per function.

A model cannot read text. A tokenizer turns each word into a token ID (its
position in the vocabulary), and the first layer looks up each ID in an
embedding table: one row of d_model numbers per token. Before training the
rows are random; training moves them so that words used alike get alike rows.

>>> ids = encode("refund my order")
>>> ids
[3, 1, 4]
>>> table = make_table(len(VOCAB), D_MODEL)
>>> lookup(table, ids)[0]
[-0.95, -0.6, 0.3, 0.09]

The lookup is the same as multiplying a one-hot vector by the table, row
for row:

>>> all(vecmat(one_hot(i, len(VOCAB)), table) == table[i] for i in range(len(VOCAB)))
True

Run ``python tokembed.py`` to see the lesson's output, ``--help`` for more.
"""

__all__ = ["VOCAB", "D_MODEL", "SEED", "TEXT", "CORPUS", "make_table",
           "encode", "decode", "lookup", "one_hot", "vecmat", "param_count",
           "dot", "cosine", "context_pairs", "sgns_step", "train_embeddings",
           "nearest", "colour", "svg_figure", "write_svg", "main"]

import math
import operator
import os
import random
import sys

VOCAB = ["<pad>", "my", "is", "refund", "order", "late"]
D_MODEL = 4
SEED = 42
TEXT = "refund my order"
# 4x a very wide real model: meta-llama/Llama-3.1-405B config.json, hidden_size 16384
MAX_D_MODEL = 65_536

# A tiny corpus for train_embeddings: "refund" and "return" are used alike,
# "monsoon" never near them; "bank" is one token in two senses.
CORPUS = [
    "please refund my order", "please return my order",
    "i want to refund the shoes", "i want to return the shoes",
    "can you refund this jacket", "can you return this jacket",
    "they will refund the money today", "they will return the money today",
    "heavy monsoon rain floods fields", "dark monsoon clouds bring rain",
    "monsoon winds arrive in june", "rain falls during monsoon season",
    "monsoon rain floods the river bank", "we walked along the river bank",
    "i opened a bank account", "my bank account is empty",
    "my order is late",
]
TRAIN_D_MODEL = 24   # numbers per trained word vector
TRAIN_EPOCHS = 12    # passes over the corpus
LEARNING_RATE = 0.25
NEGATIVES = 3        # random "non-neighbours" per real (word, context) pair

# Input-embedding sizes of well-known models: (name, vocabulary size, d_model),
# each from the model's config.json on the Hugging Face Hub.
REAL_MODELS = [
    ("GPT-2 small", 50_257, 768),    # openai-community/gpt2: vocab_size, n_embd
    ("BERT-base", 30_522, 768),      # google-bert/bert-base-uncased: vocab_size, hidden_size
    ("Llama 3 8B", 128_256, 4_096),  # meta-llama/Meta-Llama-3-8B: vocab_size, hidden_size
]
MAX_SIZE = 10**12  # --params sizes: far past any real model, and still fast to print
CELL_W, CELL_H, LEFT, TOP = 64, 32, 300, 100  # the figure's grid, in pixels


# --- the lesson, one step per function ---------------------------------------

def make_table(n_rows, d_model, seed=SEED, padding_idx=None):
    """Return an n_rows x d_model table of random numbers in [-1, 1].

    >>> make_table(2, 3, seed=7)
    [[-0.35, -0.7, 0.3], [-0.86, 0.07, -0.27]]
    """
    _check_size("n_rows", n_rows)
    _check_size("d_model", d_model)
    _check_int("seed", seed)
    rng = random.Random(seed)  # our own generator: the global one is untouched
    table = [[round(rng.uniform(-1, 1), 2) for _ in range(d_model)]
             for _ in range(n_rows)]
    if padding_idx is not None:  # zeroed after all rows are drawn, as torch.nn.Embedding does
        table[_check_id(padding_idx, n_rows, " for padding_idx")] = [0.0] * d_model
    return table


def encode(text, vocab=VOCAB):
    """Turn text into token IDs: each word's position in the vocabulary.

    >>> encode("my order is late")
    [1, 4, 2, 5]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    ids = []
    for position, word in enumerate(text.split()):
        if word not in vocab:
            raise ValueError(f"unknown token {word!r} at position {position}"
                             f"{_hint(word, vocab)}; vocabulary: {', '.join(vocab)}")
        ids.append(vocab.index(word))
    return ids


def decode(ids, vocab=VOCAB):
    """Turn token IDs back into text.

    >>> decode([3, 1, 4])
    'refund my order'
    """
    return " ".join(vocab[i] for i in _check_ids(ids, len(vocab)))


def lookup(table, ids):
    """Return a copy of the table's row for each token ID.

    >>> lookup([[0.1, 0.2], [0.3, 0.4]], [1, 1])
    [[0.3, 0.4], [0.3, 0.4]]
    """
    # ID 3 is row index 3, the 4th row; list() so callers can't edit the table
    return [list(table[i]) for i in _check_ids(ids, len(table))]


# --- the lesson's claims, made runnable --------------------------------------

def one_hot(token_id, size):
    """Return `size` zeros with a single 1 at index token_id.

    >>> one_hot(3, 6)
    [0, 0, 0, 1, 0, 0]
    """
    _check_id(token_id, _check_size("size", size))
    return [1 if i == token_id else 0 for i in range(size)]


def vecmat(vector, matrix):
    """Multiply a row vector by a matrix: out[j] = sum of vector[k] * matrix[k][j].

    >>> vecmat([1, 2], [[1, 2], [3, 4]])
    [7.0, 10.0]
    """
    widths = {len(row) for row in matrix}
    if len(widths) != 1:
        raise ValueError(f"matrix rows must all have one length, got {sorted(widths)}")
    if len(vector) != len(matrix):
        raise ValueError(f"vector has {len(vector)} numbers but matrix has "
                         f"{len(matrix)} rows; they must match")
    return [math.fsum(v * row[j] for v, row in zip(vector, matrix))
            for j in range(widths.pop())]


def param_count(vocab_size, d_model):
    """Count the numbers in a vocab_size x d_model embedding table.

    >>> param_count(128_000, 4096)
    524288000
    """
    return _check_size("vocab_size", vocab_size) * _check_size("d_model", d_model)


def dot(u, v):
    """Return the dot product, summed exactly so every Python agrees.

    >>> dot([1, 2, 3], [4, 5, 6])
    32.0
    """
    return math.fsum(map(operator.mul, u, v))  # sum() of floats changed in 3.12


def cosine(u, v):
    """Return the cosine of the angle between u and v: 1 same way, 0 unrelated.

    >>> cosine([1, 0], [1, 1])
    0.7071067811865475
    """
    if len(u) != len(v):
        raise ValueError(f"vectors must have one length, got {len(u)} and {len(v)}")
    norms = math.sqrt(dot(u, u) * dot(v, v))
    if norms == 0:
        raise ValueError("cosine is undefined for a zero vector")
    return dot(u, v) / norms


def context_pairs(sentences, vocab, window=2):
    """List each (word ID, context ID) pair at most `window` words apart.

    >>> context_pairs(["my order is"], VOCAB, window=1)
    [(1, 4), (4, 1), (4, 2), (2, 4)]
    """
    pairs = []
    for ids in (encode(sentence, vocab) for sentence in sentences):
        for i, word in enumerate(ids):
            pairs += [(word, ids[j]) for j in range(max(0, i - window), i + window + 1)
                      if j != i and j < len(ids)]
    return pairs


def sgns_step(word, context, label, lr):
    """Nudge both vectors so that sigmoid(word . context) moves toward label.

    >>> w, c = [1.0, 0.0], [0.0, 1.0]
    >>> sgns_step(w, c, 1, 0.5)  # label 1: a real neighbour, pull together
    >>> w, c
    ([1.0, 0.25], [0.25, 1.0])
    """
    g = lr * (label - 1 / (1 + math.exp(-dot(word, context))))
    word[:], context[:] = ([w + g * c for w, c in zip(word, context)],
                           [c + g * w for w, c in zip(word, context)])


def train_embeddings(seed=SEED, corpus=CORPUS, epochs=TRAIN_EPOCHS):
    """Train word vectors by skip-gram with negative sampling; return (vocab, table).

    >>> vocab, table = train_embeddings()
    >>> nearest("refund", vocab, table, k=1)[0][0]
    'return'
    """
    rng = random.Random(_check_int("seed", seed))
    vocab = sorted({word for sentence in corpus for word in sentence.split()})
    # each word gets two vectors: as a word and as a context; both start tiny and random
    words = [[rng.uniform(-0.5, 0.5) / TRAIN_D_MODEL for _ in range(TRAIN_D_MODEL)]
             for _ in vocab]
    contexts = [[rng.uniform(-0.5, 0.5) / TRAIN_D_MODEL for _ in range(TRAIN_D_MODEL)]
                for _ in vocab]
    pairs = context_pairs(corpus, vocab)
    for epoch in range(_check_int("epochs", epochs)):
        lr = LEARNING_RATE * (1 - epoch / epochs)  # decays to 0, as word2vec's does
        rng.shuffle(pairs)
        for word, context in pairs:
            sgns_step(words[word], contexts[context], 1, lr)
            for _ in range(NEGATIVES):  # a random word stands in for a non-neighbour
                sgns_step(words[word], contexts[rng.randrange(len(vocab))], 0, lr)
    return vocab, words


def nearest(word, vocab, table, k=3):
    """Return the k words whose rows point most nearly the way word's does.

    >>> nearest("b", ["a", "b", "c"], [[1, 0], [2, 1], [0, 1]], k=2)
    [('a', 0.8944271909999159), ('c', 0.4472135954999579)]
    """
    ids = _check_ids(encode(word, vocab), len(table))
    if len(ids) != 1:
        raise ValueError(f"nearest() takes one word, got {word!r}")
    scores = sorted(((cosine(table[ids[0]], row), other)
                     for other, row in zip(vocab, table) if other != word), reverse=True)
    return [(other, score) for score, other in scores[:k]]


# Input checks: clear errors instead of Python's silent surprises.

def _check_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not "
                        f"{type(value).__name__}: {value!r}")
    return value


def _check_size(name, value):
    if _check_int(name, value) < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def _check_id(token_id, n_rows, where=""):
    _check_int(f"token ID{where}", token_id)
    if not 0 <= token_id < n_rows:  # plain indexing would wrap -1 to the last row
        raise IndexError(f"token ID {token_id}{where} is out of range; "
                         f"valid IDs are 0 to {n_rows - 1}")
    return token_id


def _check_ids(ids, n_rows):
    if isinstance(ids, (int, str)):
        fix = f"write [{ids}]" if isinstance(ids, int) else "encode the text first"
        raise TypeError(f"ids must be a list of token IDs, not "
                        f"{type(ids).__name__}: {ids!r} ({fix})")
    return [_check_id(i, n_rows, f" at position {p}") for p, i in enumerate(ids)]


def _hint(word, vocab):
    """Suggest the vocabulary word a typo most likely meant, if any."""
    guess = word.lower().strip(".,;:!?\"'()")
    return f" (did you mean {guess!r}?)" if guess in vocab else ""


# --- views: the command line, the table, the figure ---------------------------

def print_lookup(words, ids, table):
    """Print the lesson's view: the IDs, each token's row, the table's shape.

    >>> print_lookup(["late"], [5], make_table(6, 4))
    token ids: [5]
    late    -> row 5: [0.61, 0.4, -0.32, -0.69]
    table shape: 6 x 4
    """
    print("token ids:", ids)
    for word, i, row in zip(words, ids, lookup(table, ids)):
        print(f"{word:7} -> row {i}: {row}")
    print("table shape:", len(table), "x", len(table[0]))


def print_one_hot(words, ids, table):
    """Print each token's one-hot vector, its product with the table, and its row."""
    n_rows, width = len(table), len(table[0])
    hots = [one_hot(i, n_rows) for i in ids]
    products, rows = [vecmat(hot, table) for hot in hots], lookup(table, ids)
    print("token ids:", ids)
    _print_columns([("token", "one-hot", "one-hot x table", "lookup")] + [
        (word, str(hot), str(product), f"row {i}: {row}")
        for word, i, hot, product, row in zip(words, ids, hots, products, rows)])
    print("product equals lookup for every token:", products == rows)
    for v, d in ((n_rows, width), (128_000, 4_096)):  # the lesson's table, then a real one
        print(f"per token, {v:,} x {d:,} table: lookup reads {d:,} numbers; "
              f"one-hot x table does {param_count(v, d):,} multiplications")


def print_params(vocab_size, d_model):
    """Print the table's parameter count and memory, then real models' tables."""
    count = param_count(vocab_size, d_model)
    print(f"embedding table: {vocab_size:,} tokens x {d_model:,} numbers = {count:,} parameters")
    for name, size in (("fp32", 4), ("bf16/fp16", 2)):
        print(f"  in {name} ({size} bytes a number): {_bytes(size * count)}")
    print("input embedding tables of real models:")
    _print_columns([("  model", "vocabulary", "d_model", "parameters", "fp32", "bf16")] + [
        (f"  {name}", f"{v:,}", f"{d:,}", f"{param_count(v, d):,}",
         _bytes(4 * param_count(v, d)), _bytes(2 * param_count(v, d)))
        for name, v, d in REAL_MODELS], right=True)


def print_training(seed):
    """Print refund's similarities before and after training, and its neighbours."""
    before, after = train_embeddings(seed, epochs=0), train_embeddings(seed)
    vocab = after[0]
    print(f"skip-gram with negative sampling: {len(CORPUS)} sentences, {len(vocab)} words, "
          f"{TRAIN_D_MODEL} numbers per word, {TRAIN_EPOCHS} epochs, seed {seed}")
    print("cosine similarity   before   after")
    for other in ("return", "monsoon"):
        pair = [cosine(*lookup(table, encode(f"refund {other}", vocab)))
                for _, table in (before, after)]
        print(f"refund ~ {other:9}  {pair[0]:6.3f}  {pair[1]:6.3f}")
    for when, (_, table) in (("before", before), ("after", after)):
        print(f"nearest to refund {when}:".ljust(26),
              ", ".join(f"{word} {score:.3f}" for word, score in nearest("refund", vocab, table)))


def print_table(words, ids, table):
    """Print every row of the table with its ID, marking the rows the text looks up."""
    print("token ids:", ids)
    _print_columns([("id", "token", "row", "looked up")] + [
        (str(i), VOCAB[i], "[" + ", ".join(f"{x:5.2f}" for x in row) + "]",
         _positions([p for p, j in enumerate(ids) if j == i]))
        for i, row in enumerate(table)])
    print("table shape:", len(table), "x", len(table[0]))


def _positions(found):
    """Describe where a row is looked up: '', '<- position 2' or '<- positions 1, 3'."""
    if not found:
        return ""
    return f"<- position{'s' if len(found) > 1 else ''} " + ", ".join(map(str, found))


def colour(value):
    """Map -1..1 onto a purple-white-orange scale, safe for colour-blind readers.

    >>> colour(-1), colour(0), colour(0.5), colour(1)
    ('#542788', '#f7f7f7', '#d5a87e', '#b35806')
    """
    # the ends of ColorBrewer's PuOr scale, rated colour-blind safe at colorbrewer2.org
    end = (0x54, 0x27, 0x88) if value < 0 else (0xB3, 0x58, 0x06)
    t = min(abs(value), 1.0)
    return "#" + "".join(f"{round(0xF7 + t * (e - 0xF7)):02x}" for e in end)


def svg_figure(table, text, vocab=VOCAB):
    """Draw the table as a heatmap, with the text's tokens pointing at their rows.

    >>> svg_figure(make_table(6, 4), "refund my order").count('class="cell"')
    24
    """
    ids = encode(text, vocab)
    if len(table) != len(vocab):
        raise ValueError(f"table has {len(table)} rows but vocabulary has {len(vocab)} tokens")
    width = LEFT + max(len(table[0]) * CELL_W, 260) + 20  # room for the legend
    height = TOP + max(len(table), len(ids)) * CELL_H + 100
    title = f"Embedding table: {len(table)} tokens x {len(table[0])} numbers"
    desc = (f'The text "{text}" becomes token IDs {ids}, and each ID selects one row, '
            f"highlighted. " + " ".join(f"Row {i}, {vocab[i]}: {', '.join(map(str, row))}."
                                        for i, row in enumerate(table)))
    return "\n".join([_svg_open(width, height, title, desc),
                      _tag("text", f'"{text}" \u2192 token IDs {ids} \u2192 one row of the '
                                   "table per token", x=20, y=62),
                      *_svg_rows(table, vocab, ids), *_svg_pipeline(text.split(), ids),
                      *_svg_legend(height - 70), "</svg>", ""])


def _svg_open(width, height, title, desc):
    """Open the SVG: size, viewBox, accessible title and description, arrowhead."""
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="title desc" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="14">',
        _tag("title", title, id="title"), _tag("desc", desc, id="desc"),
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" '
        'markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>',
        _tag("rect", width="100%", height="100%", fill="#ffffff"),
        _tag("text", title, x=20, y=34, font_size=20, font_weight="bold")])


def _svg_rows(table, vocab, ids):
    """Yield each row: its ID and token, its coloured cells, an outline if looked up."""
    for label, x in (("token", LEFT - 50), ("ID", LEFT - 10)):
        yield _tag("text", label, x=x, y=TOP - 12, text_anchor="end", font_weight="bold")
    for i, row in enumerate(table):
        y, weight = TOP + i * CELL_H, "bold" if i in ids else "normal"
        for label, x in ((vocab[i], LEFT - 50), (i, LEFT - 10)):
            yield _tag("text", label, x=x, y=y + 21, text_anchor="end", font_weight=weight)
        for j, value in enumerate(row):
            x, fill = LEFT + j * CELL_W, colour(value)
            yield _tag("rect", x=x, y=y, width=CELL_W, height=CELL_H, fill=fill,
                       class_="cell", data_row=i, data_value=value)
            yield _tag("text", f"{value:.2f}", x=x + CELL_W // 2, y=y + 21, text_anchor="middle",
                       fill="#ffffff" if _is_dark(fill) else "#111111")
        if i in ids:
            yield _tag("rect", x=LEFT, y=y, width=len(row) * CELL_W, height=CELL_H, fill="none",
                       stroke="#000000", stroke_width=4, class_="lookup", data_row=i)


def _is_dark(hex_colour):
    """Tell whether white text reads better than black on this colour."""
    red, green, blue = (int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 128  # Rec. 709 luma weights


def _svg_pipeline(words, ids):
    """Yield the text's tokens down the left, each with its ID and an arrow to its row."""
    yield _tag("text", "text \u2192 ID", x=20, y=TOP - 12, font_weight="bold")
    for k, (word, i) in enumerate(zip(words, ids)):
        y = TOP + k * CELL_H
        yield _tag("text", f"{word} \u2192 {i}", x=20, y=y + 21)
        yield _tag("line", x1=20 + 9 * (len(word) + 6), y1=y + 16, x2=LEFT - 130,
                   y2=TOP + i * CELL_H + 16, stroke="#333333", stroke_width=1.5,
                   marker_end="url(#arrow)", class_="arrow", data_row=i)


def _svg_legend(y):
    """Yield the colour scale from -1 to 1, with its ticks and a caption."""
    stops = "".join(_tag("stop", offset=f"{k * 25}%", stop_color=colour(k / 2 - 1))
                    for k in range(5))  # -1, -0.5, 0, 0.5, 1
    yield f'<defs><linearGradient id="scale">{stops}</linearGradient></defs>'
    yield _tag("text", "colour scale", x=20, y=y + 12)
    yield _tag("rect", x=LEFT, y=y, width=240, height=14, fill="url(#scale)", stroke="#333333")
    for label, dx in (("-1 purple", 0), ("0 white", 120), ("+1 orange", 240)):
        yield _tag("text", label, x=LEFT + dx, y=y + 32, text_anchor="middle")
    yield _tag("text", "thick outline: a row the text looks up", x=20, y=y + 56)


def _tag(name, text=None, **attributes):
    """Write one SVG element, escaping its text; font_size=14 becomes font-size="14".

    >>> _tag("text", "<pad>", x=10, font_weight="bold", class_="label")
    '<text x="10" font-weight="bold" class="label">&lt;pad&gt;</text>'
    """
    pairs = "".join(f' {key.rstrip("_").replace("_", "-")}="{_xml(str(value))}"'
                    for key, value in attributes.items())
    return f"<{name}{pairs}/>" if text is None else f"<{name}{pairs}>{_xml(str(text))}</{name}>"


def write_svg(path, svg):
    """Write the SVG whole or not at all: to a temporary file, then renamed."""
    import errno  # here, not at the top: only --svg needs them
    import tempfile
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", path)
    handle, temporary = tempfile.mkstemp(suffix=".svg", dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(svg)
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a figure is for sharing
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _xml(text):
    """Escape text for SVG, so that '<pad>' shows as <pad>."""
    for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;")):
        text = text.replace(char, entity)  # & first, or it would escape the others
    return text


def _print_columns(rows, right=False):
    """Print rows of strings as aligned columns (numbers right-aligned if asked)."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    for row in rows:
        cells = [cell.rjust(w) if right and k else cell.ljust(w)
                 for k, (cell, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip())


def _bytes(n):
    """Write a byte count in bytes, kB, MB, GB or TB (powers of 1,000)."""
    if n < 1000:
        return f"{n} bytes"
    for unit in ("kB", "MB", "GB", "TB"):
        n /= 1000
        if n < 1000 or unit == "TB":
            return f"{n:,.1f} {unit}"


def main(argv=None):
    """Run the lesson from the command line; return the exit status.

    >>> main(["my", "order"])
    token ids: [1, 4]
    my      -> row 1: [0.47, 0.35, 0.78, -0.83]
    order   -> row 4: [-0.56, 0.18, 0.62, -0.99]
    table shape: 6 x 4
    0
    """
    args = _parse_args(argv)
    seed = SEED if args.seed is None else args.seed
    try:
        if args.params is not None:
            print_params(*args.params)
        elif args.train:
            print_training(seed)
        else:
            text = TEXT if args.text is None else args.text
            ids = encode(text)
            d_model = D_MODEL if args.d_model is None else args.d_model
            table = make_table(len(VOCAB), d_model, seed, args.padding_idx)
            if args.svg is not None:
                _save_figure(args.svg, svg_figure(table, text))
            view = print_one_hot if args.one_hot else print_table if args.table else print_lookup
            view(text.split(), ids, table)
        sys.stdout.flush()  # a closed pipe shows up here, not at exit
    except (ValueError, IndexError) as error:
        return _fail(str(error))
    except BrokenPipeError:  # piped into `head`, say: stop quietly, no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def _save_figure(path, svg):
    """Write the figure, turning a missing folder or a refusal into a ValueError."""
    try:
        write_svg(path, svg)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise ValueError(f"cannot write the figure to {path!r}: {reason}") from None


def _parser():
    """Describe the command line: the text, the table's settings, the views."""
    import argparse  # here, not at the top: it doubles the start-up time
    parser = argparse.ArgumentParser(
        prog="tokembed.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Turn text into token IDs, then into rows of an embedding "
                    "table, as the lesson does.\nWith no flags: the lesson's output.",
        epilog="examples:\n  python tokembed.py my order is late\n"
               "  python tokembed.py --table --svg table.svg\n  python tokembed.py --one-hot\n"
               "  python tokembed.py --params 50257 768\n  python tokembed.py --train --seed 7")
    parser.add_argument("text", nargs="*",
                        help=f"words from the vocabulary, quoted or not (default: {TEXT}); "
                             f"vocabulary: {', '.join(VOCAB)}")
    parser.add_argument("--seed", type=int,
                        help=f"seed for the random table, or for --train (default: {SEED})")
    parser.add_argument("--d-model", type=int,
                        help=f"numbers per row, 1 to {MAX_D_MODEL:,} (default: {D_MODEL})")
    parser.add_argument("--padding-idx", type=int, metavar="ID",
                        help="zero this row after drawing them all, as PyTorch's padding_idx does")
    views = parser.add_mutually_exclusive_group()
    views.add_argument("--one-hot", action="store_true",
                       help="show that one-hot x table gives the same rows as the lookup")
    views.add_argument("--params", nargs="*", metavar="N",
                       help="count the table's parameters: no sizes for the lesson's "
                            "128,000 x 4,096, or VOCAB_SIZE D_MODEL")
    views.add_argument("--train", action="store_true",
                       help="train word vectors and show refund ~ return before and after")
    views.add_argument("--table", action="store_true",
                       help="print every row of the table, marking the rows the text looks up")
    parser.add_argument("--svg", metavar="PATH",
                        help="also draw the table as a heatmap into this SVG file")
    parser.error = lambda message: sys.exit(_fail(message))  # no usage dump
    return parser


def _parse_args(argv):
    """Read the command line; on a bad flag, exit 2 with one line on stderr."""
    parser = _parser()
    args = parser.parse_args(argv)
    args.text = " ".join(args.text) if args.text else None  # no words: None, not []
    if args.d_model is not None and not 1 <= args.d_model <= MAX_D_MODEL:
        parser.error(f"argument --d-model: must be 1 to {MAX_D_MODEL:,}, got {args.d_model}")
    if args.params is not None:
        args.params = _sizes(args.params, parser)
    given = [flag for flag, value in (("TEXT", args.text), ("--seed", args.seed),
                                      ("--d-model", args.d_model),
                                      ("--padding-idx", args.padding_idx), ("--svg", args.svg))
             if value is not None]
    if args.params is not None and given:  # --params draws no table at all
        parser.error("--params does not take " + ", ".join(given))
    unused = [flag for flag in given if flag != "--seed"]  # --train draws its own vectors
    if args.train and unused:
        parser.error("--train does not take " + ", ".join(unused))
    return args


def _sizes(values, parser):
    """Check --params' sizes: none (the lesson's figure) or two whole numbers."""
    if not values:
        return 128_000, 4_096
    if len(values) != 2 or not all(v.isdecimal() and len(v) <= 13 and 1 <= int(v) <= MAX_SIZE
                                   for v in values):
        parser.error(f"argument --params: expected two whole numbers from 1 to {MAX_SIZE:,} "
                     f"(VOCAB_SIZE D_MODEL), got {' '.join(values) or 'nothing'}")
    return int(values[0]), int(values[1])


def _fail(message):
    print(f"tokembed.py: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
