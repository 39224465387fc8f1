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

The file, top to bottom:

    the lesson                   make_table, encode, decode, lookup
    claim: one-hot x table       one_hot, vecmat
    claim: 524 million numbers   param_count
    claim: learned like weights  lookup_backward, sgd_step
    claim: used alike, alike     dot, cosine, train_embeddings, nearest
    claim: IDs are only labels   train_embeddings(vocab=...)
    claim: layers add context    softmax, attend
    claim: one vector a text     sentence_vector, search
    input checks                 one validator per kind of value
    -------------------------    below: printing and drawing only
    text views                   print_lookup, print_table, print_one_hot...
    the figure                   svg_figure, write_svg
    copying into a lesson        snippet
    the command line             VIEWS, OPTIONS, main

Run ``python3 tokembed.py`` for the lesson's output, ``--help`` for the rest.
"""

__all__ = ["VOCAB", "D_MODEL", "SEED", "TEXT", "make_table", "encode", "decode",
           "lookup", "one_hot", "vecmat", "REAL_MODELS", "param_count",
           "lookup_backward", "sgd_step", "CORPUS", "dot", "cosine", "context_pairs",
           "sgns_step", "train_embeddings", "nearest", "softmax", "attend",
           "sentence_vector", "search", "colour", "svg_figure", "write_svg"]

import math
import operator
import os
import random
import sys

VOCAB = ["<pad>", "my", "is", "refund", "order", "late"]
D_MODEL = 4
SEED = 42
TEXT = "refund my order"


# --- the lesson, one step per function ----------------------------------------

def make_table(n_rows, d_model, seed=SEED, padding_idx=None):
    """Return an n_rows x d_model table of random numbers in [-1, 1].

    >>> make_table(2, 3, seed=7)
    [[-0.35, -0.7, 0.3], [-0.86, 0.07, -0.27]]
    """
    n_rows, d_model = _whole("n_rows", n_rows, 1), _whole("d_model", d_model, 1)
    seed, padding_idx = _seed(seed), _padding_idx(padding_idx, n_rows)
    rng = random.Random(seed)  # our own generator: the global one is untouched
    table = [[round(rng.uniform(-1, 1), 2) for _ in range(d_model)]
             for _ in range(n_rows)]
    if padding_idx is not None:  # zeroed after every row is drawn, as PyTorch does
        table[padding_idx] = [0.0] * d_model
    return table


def encode(text, vocab=VOCAB):
    """Turn text into token IDs: each word's position in the vocabulary.

    >>> encode("my order is late")
    [1, 4, 2, 5]
    """
    text, vocab = _text(text), _vocabulary(vocab)
    id_of = {word: i for i, word in enumerate(vocab)}
    ids = []
    for position, word in enumerate(text.split()):
        if word not in id_of:
            guess = word.lower().strip(".,;:!?\"'()")  # a capital or a full stop?
            hint = f" (did you mean {guess!r}?)" if guess in id_of else ""
            raise ValueError(f"unknown token {word!r} at position {position}{hint}; "
                             f"vocabulary: {', '.join(vocab)}")
        ids.append(id_of[word])
    return ids


def decode(ids, vocab=VOCAB):
    """Turn token IDs back into text.

    >>> decode([3, 1, 4])
    'refund my order'
    """
    vocab = _vocabulary(vocab)
    ids = _token_ids(ids, len(vocab))
    return " ".join(vocab[i] for i in ids)


def lookup(table, ids):
    """Return a copy of the table's row for each token ID.

    >>> lookup([[0.1, 0.2], [0.3, 0.4]], [1, 1])
    [[0.3, 0.4], [0.3, 0.4]]
    """
    ids = _token_ids(ids, len(table))  # refuses -1, which would wrap to the last row
    return [list(table[i]) for i in ids]  # ID 3 is row index 3, the 4th row


# --- claim: the lookup is a one-hot vector times the table ---------------------

def one_hot(token_id, size):
    """Return `size` zeros with a single 1 at index token_id.

    >>> one_hot(3, 6)
    [0, 0, 0, 1, 0, 0]
    """
    size = _whole("size", size, 1)
    token_id = _token_id(token_id, size)
    return [1 if i == token_id else 0 for i in range(size)]


def vecmat(vector, matrix):
    """Multiply a row vector by a matrix: out[j] = vector . (column j of matrix).

    >>> vecmat([1, 2], [[1, 2], [3, 4]])
    [7.0, 10.0]
    """
    matrix = _rows("matrix", matrix)
    if len(vector) != len(matrix):
        raise ValueError(f"len(vector) is {len(vector)} but len(matrix) is "
                         f"{len(matrix)}; they must match")
    return [dot(vector, column) for column in zip(*matrix)]


# --- claim: a real table holds about 524 million numbers -----------------------

# Input-embedding sizes of well-known models: (name, vocabulary size, d_model),
# each from the model's config.json on the Hugging Face Hub: vocab_size, and
# n_embd (GPT-2) or hidden_size (the others).
REAL_MODELS = [
    ("GPT-2 small", 50_257, 768),    # openai-community/gpt2
    ("BERT-base", 30_522, 768),      # google-bert/bert-base-uncased
    ("Llama 3 8B", 128_256, 4_096),  # meta-llama/Meta-Llama-3-8B
]


def param_count(vocab_size, d_model):
    """Count the numbers in a vocab_size x d_model embedding table.

    >>> param_count(128_000, 4096)
    524288000
    """
    vocab_size = _whole("vocab_size", vocab_size, 1)
    d_model = _whole("d_model", d_model, 1)
    return vocab_size * d_model


# --- claim: the table is learned like every other weight -----------------------

def lookup_backward(grad_rows, ids, n_rows, padding_idx=None):
    """Return the table's gradient: each position's gradient row added to its ID's row.

    Rows nothing looks up get zeros, and so does the padding row, as in PyTorch.
    It is the one-hot claim transposed: the sum over positions of one_hot(ID),
    as a column, times that position's gradient row.

    >>> ids, g = [1, 1], [[1.0, 2.0], [0.5, 0.5]]
    >>> lookup_backward(g, ids, 3)  # ID 1 twice: its two gradient rows add up
    [[0.0, 0.0], [1.5, 2.5], [0.0, 0.0]]
    >>> first, second = ([[h * x for x in row] for h in one_hot(i, 3)]
    ...                  for i, row in zip(ids, g))
    >>> [[a + b for a, b in zip(r, s)] for r, s in zip(first, second)]
    [[0.0, 0.0], [1.5, 2.5], [0.0, 0.0]]
    """
    n_rows = _whole("n_rows", n_rows, 1)
    ids, padding_idx = _token_ids(ids, n_rows), _padding_idx(padding_idx, n_rows)
    grad_rows = _gradient_rows(grad_rows, len(ids))
    grad = [[0.0] * len(grad_rows[0]) for _ in range(n_rows)]
    for i, row in zip(ids, grad_rows):
        if i != padding_idx:  # the padding row never learns
            grad[i] = [g + x for g, x in zip(grad[i], row)]  # add: never overwrite
    return grad


def sgd_step(table, grad, lr):
    """Return the table after one step of gradient descent: x - lr x gradient, each x.

    >>> sgd_step([[1.0, 2.0], [3.0, 4.0]], [[0.5, 0.0], [0.0, 0.0]], 0.1)
    [[0.95, 2.0], [3.0, 4.0]]
    """
    if [len(row) for row in table] != [len(row) for row in grad]:
        raise ValueError("grad must have the table's shape: one number per number")
    return [[x - lr * g for x, g in zip(row, grad_row)]
            for row, grad_row in zip(table, grad)]


# --- claims: training makes words used alike end up alike; IDs are only labels

# A tiny corpus: "refund" and "return" are used alike, "monsoon" never near
# them; "bank" is one token in two senses, a river's and an account's.
CORPUS = [
    "please refund my order", "please return my order",
    "i want to refund the shoes", "i want to return the shoes",
    "can you refund this jacket", "can you return this jacket",
    "they will refund the money today", "they will return the money today",
    "heavy monsoon rain floods fields", "dark monsoon clouds bring rain",
    "monsoon winds arrive in june", "rain falls during monsoon season",
    "monsoon storms flood the valley", "the monsoon brings heavy rain",
    "monsoon rain floods the river bank", "we walked along the river bank",
    "we fished along the river", "the river bank was muddy",
    "i opened a bank account", "my bank account is empty",
    "i opened a savings account", "she opened a new account",
    "a savings account pays interest", "my order is late",
]
TRAIN_D_MODEL = 24   # numbers per trained word vector
TRAIN_EPOCHS = 12    # passes over the corpus
LEARNING_RATE = 0.25
NEGATIVES = 3        # random "non-neighbours" per real (word, context) pair


def dot(u, v):
    """Return the dot product of two vectors of one length, summed exactly.

    >>> dot([1, 2, 3], [4, 5, 6])
    32.0
    """
    if len(u) != len(v):
        raise ValueError(f"vectors must have one length, got {len(u)} and {len(v)}")
    try:
        total = math.fsum(map(operator.mul, u, v))  # sum() of floats changed in 3.12
    except (OverflowError, ValueError):  # inf - inf, or a sum past the largest float
        total = math.nan
    if not math.isfinite(total):
        bad = [x for x in (*u, *v) if not math.isfinite(x)]
        raise ValueError(f"vectors must hold finite numbers, got {bad[0]!r}" if bad
                         else "the dot product is too large for a float")
    return total


def cosine(u, v):
    """Return the cosine of the angle between u and v: 1 alike, 0 unrelated.

    >>> cosine([1, 0], [1, 1])
    0.7071067811865475
    """
    scaled = []
    for vector in (u, v):  # scale by a power of 2: exact, and no square overflows
        top = max(map(abs, vector), default=0)
        if top == 0:
            raise ValueError("cosine is undefined for a zero vector")
        scaled.append([math.ldexp(x, -math.frexp(top)[1]) for x in vector])
    u, v = scaled
    similarity = dot(u, v) / math.sqrt(dot(u, u) * dot(v, v))
    return max(-1.0, min(1.0, similarity))  # rounding can stray a hair past 1


def context_pairs(sentences, vocab, window=2):
    """List each (word ID, context ID) pair at most `window` words apart.

    >>> context_pairs(["my order is"], VOCAB, window=1)
    [(1, 4), (4, 1), (4, 2), (2, 4)]
    """
    sentences, window = _texts("sentences", sentences), _whole("window", window, 1)
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


def _tiny_rows(rng, n_rows):
    """Draw n_rows rows of TRAIN_D_MODEL small random numbers, as word2vec starts."""
    return [[rng.uniform(-0.5, 0.5) / TRAIN_D_MODEL for _ in range(TRAIN_D_MODEL)]
            for _ in range(n_rows)]


def train_embeddings(seed=SEED, corpus=CORPUS, epochs=TRAIN_EPOCHS, vocab=None):
    """Train word vectors by skip-gram with negative sampling; return (vocab, table).

    vocab sets the ID order: the corpus's words in any order (sorted if None).

    >>> vocab, table = train_embeddings(epochs=1)
    >>> len(vocab), len(table), len(table[0])
    (56, 56, 24)
    """
    seed, epochs = _seed(seed), _whole("epochs", epochs, 0)
    vocab = _word_order(_texts("corpus", corpus), vocab)
    rng = random.Random(seed)
    # each word gets two vectors, as a word and as a context: tiny and random
    words, contexts = _tiny_rows(rng, len(vocab)), _tiny_rows(rng, len(vocab))
    pairs = context_pairs(corpus, vocab)
    for epoch in range(epochs):
        lr = LEARNING_RATE * (1 - epoch / epochs)  # decays to 0, as word2vec's does
        rng.shuffle(pairs)
        for word, context in pairs:
            sgns_step(words[word], contexts[context], 1, lr)
            for _ in range(NEGATIVES):  # a random word stands in for a non-neighbour
                sgns_step(words[word], contexts[rng.randrange(len(vocab))], 0, lr)
    return vocab, words


def nearest(word, vocab, table, k=3):
    """Return the k other words whose rows point most nearly the way word's does.

    Zero rows (a padding row, say) point nowhere, so they are left out.

    >>> nearest("b", ["a", "b", "c", "d"], [[1, 0], [2, 1], [0, 1], [0, 0]], k=2)
    [('a', 0.8944271909999159), ('c', 0.4472135954999579)]
    """
    ids, k = encode(word, vocab), _whole("k", k, 1)
    table = _rows("table", table, len(vocab))
    if len(ids) != 1:
        raise ValueError(f"nearest() takes one word, got {word!r}")
    if not any(table[ids[0]]):
        raise ValueError(f"{word!r} has a zero row: it points nowhere, "
                         "so nothing is near")
    scores = sorted(((cosine(table[ids[0]], row), other)
                     for i, (other, row) in enumerate(zip(vocab, table))
                     if i != ids[0] and any(row)), reverse=True)
    return [(other, score) for score, other in scores[:k]]


# --- claim: the layers above make the vectors contextual -----------------------

def softmax(scores):
    """Turn scores into weights that are positive and sum to 1.

    >>> softmax([0.0, 0.0, -1000.0])  # exp(-1000) is too small for a float: 0.0
    [0.5, 0.5, 0.0]
    """
    top = max(scores)  # subtract the largest score, so that exp cannot overflow
    exps = [math.exp(score - top) for score in scores]
    total = math.fsum(exps)
    return [e / total for e in exps]


def attend(rows):
    """Mix the rows: each becomes a softmax(row . other / sqrt(d))-weighted average.

    The smallest honest self-attention: one head and no learned projections.
    Real layers first multiply the rows by learned query, key and value
    matrices; the lesson's sequel, "Self-Attention Step by Step", adds them.

    >>> [[round(x, 3) for x in row] for row in attend([[1.0, 0.0], [0.0, 1.0]])]
    [[0.67, 0.33], [0.33, 0.67]]
    """
    rows = _rows("rows", rows)
    scale = math.sqrt(len(rows[0]))
    return [vecmat(softmax([dot(row, other) / scale for other in rows]), rows)
            for row in rows]


# --- claim: a sentence embedding is not a token embedding ----------------------

def sentence_vector(rows):
    """Pool a text's contextual rows into one vector: their average, number by number.

    >>> sentence_vector([[1.0, 2.0], [3.0, 6.0]])
    [2.0, 4.0]
    """
    rows = _rows("rows", rows)
    return [math.fsum(column) / len(rows) for column in zip(*rows)]


def search(query, sentences, vocab, table, k=3):
    """Rank sentences by how alike their sentence vectors are to the query's.

    A toy vector database: one vector per sentence, compared by cosine.

    >>> vocab, table = ["cat", "dog", "car"], [[1.0, 0.1], [0.9, 0.2], [0.0, 1.0]]
    >>> found = search("cat", ["car", "dog"], vocab, table)
    >>> [(text, round(score, 3)) for text, score in found]
    [('dog', 0.993), ('car', 0.1)]
    """
    sentences, k = _texts("sentences", sentences), _whole("k", k, 1)
    def embed(text):
        return sentence_vector(attend(lookup(table, encode(text, vocab))))
    target = embed(query)
    ranked = sorted(((cosine(target, embed(s)), s) for s in sentences), reverse=True)
    return [(sentence, score) for score, sentence in ranked[:k]]


# --- input checks: one validator per kind of value, returning the clean value ---

def _int(name, value):
    """Return value as an int, as Python indexes a list with it; refuse bool."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # int, and NumPy's integers too
        except TypeError:
            pass
    raise TypeError(f"{name} must be an int, not {type(value).__name__}: {value!r}")


def _whole(name, value, least, why=""):
    """Return value as an int of at least `least`."""
    value = _int(name, value)
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}{why}")
    return value


def _seed(seed):
    """Return the seed, refusing negatives: Python's random seeds -5 as it seeds 5."""
    return _whole("seed", seed, 0, " (random.Random(-5) draws what random.Random(5) "
                                   "draws, so a negative seed would only repeat one)")


def _token_id(token_id, n_rows, position=None):
    """Return the ID if it names a row 0 to n_rows - 1."""
    where = "" if position is None else f" at position {position}"
    token_id = _int(f"token ID{where}", token_id)
    if not 0 <= token_id < n_rows:  # Python would quietly wrap -1 to the last row
        raise IndexError(f"token ID {token_id}{where} is out of range; "
                         f"valid IDs are 0 to {n_rows - 1}")
    return token_id


def _token_ids(ids, n_rows):
    """Return ids as a list of valid row numbers, naming the first bad one."""
    if isinstance(ids, (str, bytes, bytearray, dict, set, frozenset)) or \
            not hasattr(ids, "__iter__"):
        fix = {int: f" (write [{ids}])", str: " (encode the text first)"}
        raise TypeError(f"ids must be a list of token IDs, not {type(ids).__name__}: "
                        f"{ids!r}{fix.get(type(ids), '')}")
    return [_token_id(i, n_rows, position) for position, i in enumerate(ids)]


def _padding_idx(padding_idx, n_rows):
    """Return None or a row number; -1 is the last row, as in PyTorch."""
    if padding_idx is None:
        return None
    padding_idx = _int("padding_idx", padding_idx)
    if not -n_rows <= padding_idx < n_rows:
        raise IndexError(f"padding_idx {padding_idx} is out of range; valid rows are "
                         f"{-n_rows} to {n_rows - 1} (-1 is the last, as in PyTorch)")
    return padding_idx % n_rows


def _text(text, name="text"):
    """Return text if it is a str."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, not {type(text).__name__}: {text!r}")
    return text


def _texts(name, texts):
    """Return texts if it is a list or tuple of str."""
    if not isinstance(texts, (list, tuple)):
        raise TypeError(f"{name} must be a list or tuple of str, "
                        f"not {type(texts).__name__}: {texts!r}")
    for i, text in enumerate(texts):
        _text(text, f"{name}[{i}]")
    return texts


def _vocabulary(vocab):
    """Return vocab if it is a list or tuple of distinct printable words."""
    _texts("vocab", vocab)
    for i, word in enumerate(vocab):
        if not word.isprintable() or word.split() != [word]:
            raise ValueError(f"vocab[{i}] is {word!r}; a word must be printable, with "
                             "no spaces, since encode splits text at whitespace")
    if len(set(vocab)) != len(vocab):
        twice = sorted({word for word in vocab if vocab.count(word) > 1})
        raise ValueError(f"vocab lists {twice[0]!r} twice; each word needs one ID")
    return vocab


def _word_order(corpus, vocab):
    """Return the ID order for training: the corpus's words, sorted or as given."""
    words = sorted({word for sentence in corpus for word in sentence.split()})
    if vocab is None:
        return words
    vocab = _vocabulary(vocab)
    if sorted(vocab) != words:
        missing = sorted(set(words) - set(vocab)) or ["none"]
        extra = sorted(set(vocab) - set(words)) or ["none"]
        raise ValueError(f"vocab must list each word of the corpus once, in any order; "
                         f"missing: {', '.join(missing)}; "
                         f"not in the corpus: {', '.join(extra)}")
    return vocab


def _rows(name, rows, count=None):
    """Return rows if it holds `count` (or any number of) rows of one length."""
    widths = sorted({len(row) for row in rows})
    if widths in ([], [0]) or len(widths) > 1:
        raise ValueError(f"{name} must hold rows of one length, 1 or more; "
                         f"got row lengths {widths}")
    if count is not None and len(rows) != count:
        raise ValueError(f"len({name}) is {len(rows)} but len(vocab) is {count}; "
                         "a table has one row per word")
    return rows


def _gradient_rows(grad_rows, count):
    """Return grad_rows if it holds one row per ID, all of one length."""
    if len(grad_rows) != count:
        raise ValueError(f"len(grad_rows) is {len(grad_rows)} but len(ids) is {count}; "
                         "give one gradient row per ID")
    return _rows("grad_rows", grad_rows)


# ===============================================================================
# Below this line: printing and drawing. No lesson content.
# ===============================================================================

# --- text views ------------------------------------------------------------------

WIDTH = 80  # every view fits an 80-column terminal


def print_lookup(words, ids, table):
    """Print the lesson's view: the IDs, each token's row, the table's shape.

    >>> print_lookup(["late"], [5], make_table(6, 4))
    token ids: [5]
    late    -> row 5: [0.61, 0.4, -0.32, -0.69]
    table shape: 6 x 4
    """
    _say(f"token ids: {ids}", 12)
    for word, i, row in zip(words, ids, lookup(table, ids)):
        prefix = f"{word:7} -> row {i}: "
        _say(f"{prefix}{row}", len(prefix) + 1)
    print("table shape:", len(table), "x", len(table[0]))


def print_table(ids, table):
    """Print every row of the table with its ID, marking the rows the text looks up."""
    _say(f"token ids: {ids}", 12)
    where = _positions_of(ids, len(table))
    _columns([("id", "token", "row", "looked up")] + [
        (str(i), VOCAB[i], _numbers(row), _positions(where[i], "<- "))
        for i, row in enumerate(table)])
    print("table shape:", len(table), "x", len(table[0]))


def print_one_hot(words, ids, table):
    """Print each token's one-hot vector, its product with the table, and its row."""
    n_rows, width = len(table), len(table[0])
    hots = [one_hot(i, n_rows) for i in ids]
    products, rows = [vecmat(hot, table) for hot in hots], lookup(table, ids)
    _say(f"token ids: {ids}", 12)
    for word, i, hot, product, row in zip(words, ids, hots, products, rows):
        _say(f"{word:7} one-hot          {hot}", 26)
        _say(f"{'':7} one-hot x table  {product}", 26)
        _say(f"{'':7} {'row ' + str(i) + ' by lookup':16} {row}", 26)
    print("product equals lookup for every token:", products == rows)
    if any(x == 0 and math.copysign(1, x) < 0 for row in rows for x in row):
        print("(-0.0 is 0.0 with a sign: they are equal, and a sum writes it 0.0)")
    _columns([("cost per token", "lookup reads", "one-hot x table multiplies")] + [
        (f"{v:,} x {d:,} table", f"{d:,}", f"{param_count(v, d):,}")
        for v, d in ((n_rows, width), (128_000, 4_096))], right=(1, 2))


def print_params(vocab_size, d_model):
    """Print the table's parameter count and memory, then real models' tables."""
    count = param_count(vocab_size, d_model)
    _say(f"embedding table: {_count(vocab_size, 'token')} x "
         f"{_count(d_model, 'number')} = {_count(count, 'parameter')}", 2)
    for name, size in (("fp32", 4), ("bf16/fp16", 2)):
        print(f"  in {name} ({size} bytes a number): {_bytes(size * count)}")
    print("input embedding tables of real models:")
    _columns([("  model", "vocabulary", "d_model", "parameters", "fp32", "bf16")] + [
        (f"  {name}", f"{v:,}", f"{d:,}", f"{param_count(v, d):,}",
         _bytes(4 * param_count(v, d)), _bytes(2 * param_count(v, d)))
        for name, v, d in REAL_MODELS], right=range(1, 6))


def print_learning(words, ids, table, padding_idx):
    """Take one gradient step for the text; print which rows moved, and how far."""
    lr, grad_rows = 0.1, [[1.0] * len(table[0]) for _ in ids]  # d(sum)/d(number) = 1
    grad = lookup_backward(grad_rows, ids, len(table), padding_idx)
    after, where = sgd_step(table, grad, lr), _positions_of(ids, len(table))
    _say(f"token ids: {ids}", 12)
    print("toy loss: the sum of the looked-up numbers, so each position adds 1 to")
    print(f"the gradient of every number in its row; learning rate {lr}")
    _columns([("id", "token", "looked up", "gradient", "step", "row after the step")]
             + [(str(i), VOCAB[i], _count(len(where[i]), "time") if where[i] else "-",
                 _gradient_of(g, i == padding_idx),
                 f"{-lr * g[0]:.1f}" if any(g) else "0", _numbers(row))
                for i, (g, row) in enumerate(zip(grad, after))])
    unmoved = [(new, old) for new, old, g in zip(after, table, grad) if not any(g)]
    print("rows with no gradient are unchanged, byte for byte:",
          all(repr(new) == repr(old) for new, old in unmoved))
    for i, n in enumerate(map(len, where)):
        if n > 1 and i != padding_idx:
            print(f"{VOCAB[i]}, looked up {n} times, gets {n} x the gradient: "
                  f"it moves {n} times as far")


def _gradient_of(grad_row, padding):
    """Describe a row's gradient, all of whose numbers are equal here."""
    if padding:
        return "0, padding"
    return f"{grad_row[0]} each" if any(grad_row) else "0"


def print_training(seed):
    """Print refund's similarities before and after training, then other ID orders."""
    vocab, after = train_embeddings(seed)
    _, before = train_embeddings(seed, epochs=0)
    print(f"skip-gram with negative sampling on {len(CORPUS)} sentences: "
          f"{len(vocab)} words,")
    print(f"{TRAIN_D_MODEL} numbers per word, {TRAIN_EPOCHS} epochs, seed {seed}")
    _columns([("cosine similarity", "IDs", "before", "after")] + [
        (f"refund ~ {other}", f"{vocab.index('refund')}, {vocab.index(other)}",
         *(f"{_cosine_of(vocab, table, other):.3f}" for table in (before, after)))
        for other in ("return", "monsoon")], right=(1, 2, 3))
    for when, table in (("before", before), ("after", after)):
        print(f"nearest to refund {when}:".ljust(26), _neighbours(vocab, table))
    print()
    _print_id_orders(seed, vocab)


def _print_id_orders(seed, vocab):
    """Train again with the words numbered two other ways; print refund's neighbours."""
    print("an ID is only a label: number the words another way and train again")
    orders = [("alphabetical", vocab), ("reversed", vocab[::-1]),
              ("shuffled", random.Random(seed).sample(vocab, len(vocab)))]
    _columns([("ID order", "refund", "return", "monsoon", "nearest to refund after")]
             + [(name, *(str(order.index(w)) for w in ("refund", "return", "monsoon")),
                 _neighbours(order, train_embeddings(seed, vocab=order)[1], k=2))
                for name, order in orders], right=(1, 2, 3))


def _cosine_of(vocab, table, other):
    return cosine(*lookup(table, encode(f"refund {other}", vocab)))


def _neighbours(vocab, table, k=3):
    found = nearest("refund", vocab, table, k)
    return ", ".join(f"{word} {score:.3f}" for word, score in found)


def print_context(seed):
    """Print bank's row before and after attention, in two sentences of two senses."""
    vocab, table = train_embeddings(seed)
    row = dict(zip(vocab, table))
    sentences = ["we walked along the river bank", "i opened a bank account"]
    rows = [lookup(table, encode(s, vocab)) for s in sentences]  # looked up once
    at = [s.split().index("bank") for s in sentences]
    inputs = [looked_up[k] for looked_up, k in zip(rows, at)]
    outputs = [attend(looked_up)[k] for looked_up, k in zip(rows, at)]
    print(f'"bank" has one row in the trained table (seed {seed}), '
          "whatever the sentence;")
    print("attend mixes in the words around it, so each sentence gives it a new one")
    _columns([("bank's vector", "~ river", "~ account", "river - account")] + [
        (label, *_leanings(vector, row))
        for label, vector in [("input row, either sentence", row["bank"])] +
        [(f'in "{s}"', out) for s, out in zip(sentences, outputs)]], right=(1, 2, 3))
    print("the input row is the same in both sentences:", inputs[0] == inputs[1])
    print("the two outputs differ:", outputs[0] != outputs[1])


def _leanings(vector, row):
    river, account = cosine(vector, row["river"]), cosine(vector, row["account"])
    return f"{river:.3f}", f"{account:.3f}", f"{river - account:+.3f}"


def print_search(query, seed):
    """Print the query's token and sentence vectors, then the corpus's best matches."""
    vocab, table = train_embeddings(seed)
    n = len(query.split())
    print(f'query "{query}": {_count(n, "token")}, so {_count(n, "token vector")} '
          f"of {TRAIN_D_MODEL} numbers,")
    print(f"pooled into 1 sentence vector of {TRAIN_D_MODEL} numbers "
          f"(trained, seed {seed})")
    print(f"the 5 of the corpus's {len(CORPUS)} sentences nearest to it, by cosine:")
    for sentence, score in search(query, CORPUS, vocab, table, k=5):
        print(f"  {score:.3f}  {sentence}")


def _say(line, indent):
    """Print a line, wrapped at WIDTH columns; later lines are indented."""
    if len(line) <= WIDTH:
        print(line)
        return
    import textwrap  # here, not at the top: only long lines need it
    print(textwrap.fill(line, WIDTH, subsequent_indent=" " * min(indent, WIDTH // 2),
                        break_long_words=False, break_on_hyphens=False))


def _columns(rows, right=()):
    """Print rows of strings as aligned columns, those numbered in `right` to the right.

    A line too wide for the terminal wraps its last column.
    """
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    for row in rows:
        cells = [cell.rjust(w) if k in right else cell.ljust(w)
                 for k, (cell, w) in enumerate(zip(row, widths))]
        lead = "  ".join(cells[:-1] + [""])
        _say((lead + cells[-1]).rstrip(), len(lead) + 1)


def _numbers(row):
    """Write a row of numbers with two decimals, so the columns line up."""
    return "[" + ", ".join(f"{x:5.2f}" for x in row) + "]"


def _positions_of(ids, n_rows):
    """List, for each row, the positions of the text that look it up."""
    where = [[] for _ in range(n_rows)]
    for position, i in enumerate(ids):
        where[i].append(position)
    return where


def _positions(found, lead=""):
    """Describe where a row is looked up: '', 'position 2' or 'positions 1, 3'."""
    if not found:
        return ""
    if len(found) > 4:
        shown = ", ".join(map(str, found[:3]))
        return f"{lead}{len(found):,} positions: {shown}, ..."
    plural = "s" if len(found) > 1 else ""
    return f"{lead}position{plural} " + ", ".join(map(str, found))


def _count(n, noun):
    """Write '1 token' or '4,096 tokens'."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _bytes(n):
    """Write a byte count in bytes, kB, MB, GB... (powers of 1,000)."""
    if n < 1000:
        return f"{n} bytes"
    for unit in ("kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"):
        n /= 1000
        if round(n, 1) < 1000 or unit == "YB":  # 999.96 kB would show as 1,000.0 kB
            return f"{n:,.1f} {unit}"


# --- the figure: the table as a heatmap, in SVG -----------------------------------

CELL_W, CELL_H, ROW_GAP = 56, 28, 6  # a cell; the gap keeps two outlined rows apart
CHAR_W = 8            # a 14 px DejaVu Sans character is about 7.5 px wide
MARGIN, LINE_H = 20, 22
TITLE_Y, NOTES_Y = 34, 62  # baselines: the title, then the first note under it
HEADINGS_H = 24       # room above the rows for their column headings
TEXT_DROP = 5         # a 14 px text's baseline sits this far below its row's middle
ARROW_W, ID_W = 48, 40
LEGEND_W, LEGEND_H = 240, 100  # the colour scale, and the room for it below the rows
TEXT_MAX_W = 900      # a longer line under the title wraps
FIGURE_MAX = 64       # rows, or numbers a row: past this a figure stops being readable


class SVG(str):
    """An SVG document: a str everywhere, and a picture in Jupyter."""

    def _repr_svg_(self):  # IPython calls this to draw the object
        return str(self)


def colour(value):
    """Map -1..1 onto a purple-white-orange scale, safe for colour-blind readers.

    >>> colour(-1), colour(0), colour(0.5), colour(1)
    ('#542788', '#f7f7f7', '#d5a87e', '#b35806')
    """
    # the ends of ColorBrewer's PuOr scale, rated colour-blind safe at colorbrewer2.org
    end = (0x54, 0x27, 0x88) if value < 0 else (0xB3, 0x58, 0x06)
    t = min(abs(value), 1.0)
    return "#" + "".join(f"{round(0xF7 + t * (e - 0xF7)):02x}" for e in end)


def svg_figure(table, text, vocab=VOCAB, seed=None, padding_idx=None):
    """Draw the table as a heatmap, with an arrow to each row the text looks up.

    >>> figure = svg_figure([[0.5, -1.0], [0.0, 1.0]], "b a b", vocab=["a", "b"])
    >>> figure.count('class="cell"'), figure.count('class="lookup"')
    (4, 2)
    """
    ids, table = encode(text, vocab), _drawable(table, len(vocab))
    where = _positions_of(ids, len(table))
    labels = {i: _positions(where[i]) for i in sorted(set(ids))}  # "positions 1, 2"
    subtitle = (f'"{" ".join(text.split())}" \u2192 token IDs {ids} \u2192 '
                "one row of the table per token.")
    x = _columns_x(labels.values(), vocab, len(table[0]), subtitle)
    notes = _figure_notes(subtitle, seed, padding_idx, x["width"])
    top = NOTES_Y + LINE_H * len(notes) + HEADINGS_H  # the first row
    height = top + len(table) * (CELL_H + ROW_GAP) + LEGEND_H
    title = (f"Embedding table: {_count(len(table), 'token')} x "
             f"{_count(len(table[0]), 'number')}")
    desc = f"{notes[0]} Looked-up rows are outlined. " + " ".join(
        f"Row {i}, {vocab[i]}: {', '.join(map(str, row))}."
        for i, row in enumerate(table))
    key = _figure_key(title + desc)
    return SVG("\n".join([
        _svg_open(x["width"], height, title, desc, key),
        *(_tag("text", note, x=MARGIN, y=NOTES_Y + LINE_H * k)
          for k, note in enumerate(notes)),
        *_svg_rows(table, vocab, labels, x, top, key),
        *_svg_legend(x["cells"], height - LEGEND_H + 30, key), "</svg>", ""]))


def _drawable(table, n_rows):
    """Return the table if it can be drawn: one row per word, finite, not too big."""
    table = _rows("table", table, n_rows)
    if max(len(table), len(table[0])) > FIGURE_MAX:
        raise ValueError(f"a figure shows at most {FIGURE_MAX} rows of {FIGURE_MAX} "
                         f"numbers, got {len(table):,} x {len(table[0]):,}; "
                         "print it with --table instead")
    for i, row in enumerate(table):
        bad = [x for x in row if not math.isfinite(x)]
        if bad:
            raise ValueError(f"row {i} holds {bad[0]!r}; a figure needs finite numbers")
    return table


def _columns_x(labels, vocab, d_model, subtitle):
    """Place the figure's columns: labels, arrows, tokens, IDs, cells; and its width."""
    label_end = MARGIN + CHAR_W * max([len("in the text")] + list(map(len, labels)))
    token_end = label_end + ARROW_W + CHAR_W * max(map(len, vocab))
    cells = token_end + ID_W
    width = max(cells + max(d_model * CELL_W, LEGEND_W + 80),
                min(MARGIN + CHAR_W * len(subtitle), TEXT_MAX_W)) + MARGIN
    return {"label": round(label_end), "token": round(token_end),
            "id": round(cells - 8), "cells": round(cells), "width": round(width)}


def _figure_notes(subtitle, seed, padding_idx, width):
    """Write the lines under the title: the text and its IDs, then the seed."""
    import textwrap  # here, not at the top: only the figure needs it
    notes = textwrap.wrap(subtitle, int((width - 2 * MARGIN) / CHAR_W), max_lines=3,
                          placeholder=" ...", break_on_hyphens=False)
    drawn = [] if seed is None else [f"Random numbers, seed {seed}."]
    if padding_idx is not None:
        drawn.append(f"Row {padding_idx} is the padding row: all zeros.")
    return notes + ([" ".join(drawn)] if drawn else [])


def _figure_key(content):
    """Name the figure's element ids after its content: two figures in a page differ."""
    import zlib  # here, not at the top: only the figure needs it
    return f"tokembed-{zlib.crc32(content.encode('utf-8')):08x}"


def _svg_open(width, height, title, desc, key):
    """Open the SVG: size, viewBox, accessible title and description, arrowhead."""
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" '
        f'aria-labelledby="{key}-title {key}-desc" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="14">',
        _tag("title", title, id=f"{key}-title"), _tag("desc", desc, id=f"{key}-desc"),
        f'<defs><marker id="{key}-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="8" markerHeight="8" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#333333"/></marker></defs>',
        _tag("rect", width="100%", height="100%", fill="#ffffff"),
        _tag("text", title, x=MARGIN, y=TITLE_Y, font_size=20, font_weight="bold")])


def _svg_rows(table, vocab, labels, x, top, key):
    """Yield the headings, then each row: token, ID, cells; an arrow if looked up."""
    headings = [("token", x["token"]), ("ID", x["id"])] + [("in the text", x["label"])]
    for heading, right in headings[:len(headings) if labels else 2]:
        yield _tag("text", heading, x=right, y=top - 10, text_anchor="end",
                   font_weight="bold")
    for i, row in enumerate(table):
        y = top + i * (CELL_H + ROW_GAP)
        baseline = y + CELL_H // 2 + TEXT_DROP
        for label, right in ((vocab[i], x["token"]), (i, x["id"])):
            yield _tag("text", label, x=right, y=baseline, text_anchor="end",
                       font_weight="bold" if i in labels else "normal")
        for j, value in enumerate(row):
            left, fill = x["cells"] + j * CELL_W, colour(value)
            yield _tag("rect", x=left, y=y, width=CELL_W, height=CELL_H, fill=fill,
                       class_="cell", data_row=i, data_value=value)
            yield _tag("text", f"{value:.2f}", x=left + CELL_W // 2, y=baseline,
                       text_anchor="middle",
                       fill="#ffffff" if _is_dark(fill) else "#111111")
        if i in labels:
            yield from _svg_pointer(labels[i], i, x, y, len(row), key)


def _svg_pointer(label, i, x, y, width, key):
    """Yield a looked-up row's outline, and its label with an arrow pointing at it."""
    middle = y + CELL_H // 2
    yield _tag("rect", x=x["cells"], y=y, width=width * CELL_W, height=CELL_H,
               fill="none", stroke="#000000", stroke_width=3, class_="lookup",
               data_row=i)
    yield _tag("text", label, x=x["label"], y=middle + TEXT_DROP, text_anchor="end")
    yield _tag("line", x1=x["label"] + 8, y1=middle, x2=x["label"] + ARROW_W - 14,
               y2=middle, stroke="#333333", stroke_width=1.5,
               marker_end=f"url(#{key}-arrow)", class_="arrow", data_row=i)


def _is_dark(hex_colour):
    """Tell whether white text reads better than black on this colour."""
    red, green, blue = (int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 128  # Rec. 709 luma weights


def _svg_legend(left, y, key):
    """Yield the colour scale from -1 to 1 at height y, with its ticks and a caption."""
    stops = "".join(_tag("stop", offset=f"{k * 25}%", stop_color=colour(k / 2 - 1))
                    for k in range(5))  # -1, -0.5, 0, 0.5, 1
    yield f'<defs><linearGradient id="{key}-scale">{stops}</linearGradient></defs>'
    yield _tag("text", "colour scale", x=left - 12, y=y + 12, text_anchor="end")
    yield _tag("rect", x=left, y=y, width=LEGEND_W, height=14,
               fill=f"url(#{key}-scale)", stroke="#333333")
    ticks = (("-1 purple", 0), ("0 white", LEGEND_W // 2), ("+1 orange", LEGEND_W))
    for label, dx in ticks:
        yield _tag("text", label, x=left + dx, y=y + 14 + LINE_H - 4,
                   text_anchor="middle")
    yield _tag("text", "thick outline: a row the text looks up", x=left,
               y=y + 14 + 2 * LINE_H)


def _tag(name, text=None, **attributes):
    """Write one SVG element, escaping its text; font_size=14 becomes font-size="14".

    >>> _tag("text", "<pad>", x=10, font_weight="bold", class_="label")
    '<text x="10" font-weight="bold" class="label">&lt;pad&gt;</text>'
    """
    from html import escape  # here, not at the top: only the figure needs it
    pairs = "".join(f' {key.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
                    for key, value in attributes.items())
    if text is None:
        return f"<{name}{pairs}/>"
    return f"<{name}{pairs}>{escape(str(text))}</{name}>"


def write_svg(path, svg):
    """Write svg to path as open(path, "w") would, but whole or not at all.

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_svg(os.path.join(folder, "table.svg"), "<svg/>")
    ...     os.listdir(folder)
    ['table.svg']
    """
    import stat  # here, not at the top: only --svg needs it
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # Windows has none
    try:  # refuse what open() refuses (a folder, a file we may not write); no change
        handle = os.open(path, os.O_WRONLY | nonblocking)
    except FileNotFoundError:
        if not path:
            raise
        target = os.path.realpath(path) if os.path.islink(path) else path
        return _replace(target, svg, None)  # a new file, or a symlink's new target
    with open(handle, "w", encoding="utf-8") as file:
        now = os.fstat(handle)
        if not stat.S_ISREG(now.st_mode):  # a device or a pipe: written in place
            if nonblocking:  # a pipe no one reads was refused above, not waited on
                os.set_blocking(handle, True)
            file.write(svg)
            return None
    return _replace(os.path.realpath(path), svg, now)  # a symlink: replace its target


def _replace(target, svg, now):
    """Write svg beside target, then rename it over target: whole or not at all."""
    import signal  # here, not at the top: only --svg needs it
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.tmp")
    hold = getattr(signal, "pthread_sigmask", None)  # Windows has none
    if hold:  # Ctrl-C, kill and hang-up wait until the file is whole and in place
        held = hold(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    try:
        _write_new(temporary, svg, now)
        os.replace(temporary, target)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise
    finally:
        if hold:
            hold(signal.SIG_SETMASK, held)


def _write_new(path, svg, now):
    """Make a new file at path holding svg, with the mode and owner of `now`, if any."""
    # 0o666 less the umask, as open() would make it
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with open(handle, "w", encoding="utf-8") as file:
        file.write(svg)
        file.flush()
        os.fsync(handle)
    if now:
        os.chmod(path, now.st_mode & 0o7777)
        owner = (now.st_uid, now.st_gid)
        if hasattr(os, "chown") and owner != (os.getuid(), os.getgid()):
            try:
                os.chown(path, now.st_uid, now.st_gid)
            except PermissionError:  # only root may give a file away
                pass


# --- copying into a lesson -------------------------------------------------------

def snippet(*names):
    """Return paste-ready source for the named functions or constants, and their needs.

    >>> source = snippet("dot")
    >>> [line for line in source.splitlines() if line.startswith(("import", "def"))]
    ['import math', 'import operator', 'def dot(u, v):']
    """
    import ast  # here, not at the top: only --copy needs them
    import inspect
    unknown = [name for name in names if name not in __all__]
    if unknown or not names:
        problem = f"cannot copy {unknown[0]!r}" if unknown else "name something to copy"
        raise ValueError(f"{problem}; you can copy: {', '.join(__all__)}")
    source = inspect.getsource(sys.modules[__name__])
    ordered = _in_order(_reach(names, _pieces(ast.parse(source))), names)
    lines = source.splitlines()
    imports = [node for node in ordered
               if isinstance(node, (ast.Import, ast.ImportFrom))]
    blocks = ["\n".join(_lines_of(node, lines) for node in imports)] if imports else []
    blocks += [_lines_of(node, lines) for node in ordered if node not in imports]
    return _snippet_header(names) + "\n\n\n".join(blocks) + "\n"


def _pieces(tree):
    """Map each name the module defines at the top level to its statement."""
    return {name: node for node in tree.body for name in _bound(node)}


def _bound(node):
    """List the names a top-level statement defines."""
    import ast
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [alias.asname or alias.name.split(".")[0] for alias in node.names]
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [n.id for target in node.targets for n in ast.walk(target)
                if isinstance(n, ast.Name)]
    return []


def _reach(names, pieces):
    """Return the statements the names need, following calls, defaults and doctests."""
    needed, todo = [], list(names)
    while todo:
        node = pieces[todo.pop()]
        if node not in needed:
            needed.append(node)
            todo += [name for name in _uses(node) if name in pieces]
    return needed


def _uses(node, early=False):
    """List the names a statement reads: ever, or only when it is defined (early)."""
    import ast
    loads, stores = set(), set()
    for tree in _parts(node, early):
        for n in ast.walk(tree):
            if isinstance(n, ast.Name):
                (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
            elif isinstance(n, ast.arg):
                stores.add(n.arg)
    return loads - stores


def _parts(node, early):
    """The parts of a statement that run: on definition (early), or ever (doctests)."""
    import ast
    import doctest
    if early and isinstance(node, ast.FunctionDef):
        return node.args.defaults + [d for d in node.args.kw_defaults if d]
    if early and isinstance(node, ast.ClassDef):
        return node.bases
    documented = isinstance(node, (ast.FunctionDef, ast.ClassDef))
    doc = ast.get_docstring(node) if documented else None
    examples = doctest.DocTestParser().get_examples(doc or "")
    return [node] + [ast.parse(example.source) for example in examples]


def _in_order(needed, names):
    """Sort statements to run top to bottom: imports, what the names need, the names."""
    import ast
    early = {name for node in needed for name in _uses(node, early=True)}
    def place(node):
        own = set(_bound(node))
        last = bool(own & set(names)) and not own & early  # unless needed on definition
        return not isinstance(node, (ast.Import, ast.ImportFrom)), last, node.lineno
    return sorted(needed, key=place)


def _lines_of(node, lines):
    """Return a statement's source lines, with the comment lines just above it."""
    start = node.lineno - 1
    while start and lines[start - 1].startswith("#"):
        start -= 1
    return "\n".join(lines[start:node.end_lineno])


def _snippet_header(names):
    """Write the snippet's docstring: where it comes from, and each constant's value."""
    import textwrap
    examples = []
    for name in names:
        value = globals()[name]
        if not callable(value):
            shown = repr(value)
            examples.append(f">>> {name}\n{shown}" if len(shown) <= 72 else
                            f">>> len({name}), {name}[0]\n{(len(value), value[0])!r}")
    origin = textwrap.fill(f'"""{", ".join(names)}: copied from tokembed.py, '
                           "(c) 2026 The tokembed authors, MIT License.", 79)
    return origin + "".join(f"\n\n{example}" for example in examples) + \
        ('\n"""' if examples else '"""') + "\n\n"


# --- the command line ------------------------------------------------------------

# 4x a very wide model: meta-llama/Llama-3.1-405B's config.json, hidden_size 16384
MAX_D_MODEL = 65_536
MAX_SIZE = 10**12     # --params sizes: far past any real model, still quick to print
MAX_QUERY = 200       # --search words: attention compares every pair of them


def _lesson_inputs(words, args):
    """Read the text and draw the lesson's table as the options say; maybe a figure."""
    text = TEXT if words is None else " ".join(words)
    ids, seed = encode(text), _seed_of(args)
    d_model, padding_idx = _given(args, "d_model", D_MODEL), args["padding_idx"]
    if not 1 <= d_model <= MAX_D_MODEL:
        raise ValueError(f"argument --d-model: must be 1 to {MAX_D_MODEL:,}, "
                         f"got {d_model}")
    table = make_table(len(VOCAB), d_model, seed, padding_idx)
    padding_idx = _padding_idx(padding_idx, len(VOCAB))
    figure = None if args["svg"] is None else svg_figure(table, text, seed=seed,
                                                          padding_idx=padding_idx)
    return {"words": text.split(), "ids": ids, "table": table,
            "padding_idx": padding_idx, "figure": figure}


def _learning_inputs(words, args):
    """Read what --learn needs: the lesson's inputs, with at least one token."""
    inputs = _lesson_inputs(words, args)
    if not inputs["ids"]:
        raise ValueError("--learn needs at least one word to look up")
    return inputs


def _seed_inputs(words, args):
    """Read the seed, the only input of --train and --context."""
    return {"seed": _seed_of(args)}


def _query_inputs(words, args):
    """Read --search's query: words of the training corpus, at most MAX_QUERY."""
    query = TEXT if words is None else " ".join(words)
    ids = encode(query, _word_order(CORPUS, None))
    if not 1 <= len(ids) <= MAX_QUERY:
        raise ValueError(f"--search takes 1 to {MAX_QUERY:,} words, got {len(ids):,}: "
                         "attention compares every pair of them")
    return {"query": query, "seed": _seed_of(args)}


def _size_inputs(words, args):
    """Read --params' sizes: none (the lesson's 128,000 x 4,096), or two numbers."""
    if words is None:
        return {"vocab_size": 128_000, "d_model": 4_096}
    if len(words) != 2 or not all(
            w.isdecimal() and len(w) <= 13 and 1 <= int(w) <= MAX_SIZE for w in words):
        raise ValueError(f"argument --params: expected two whole numbers from 1 to "
                         f"{MAX_SIZE:,} (VOCAB_SIZE D_MODEL), "
                         f"got {' '.join(words) or 'nothing'}")
    return {"vocab_size": int(words[0]), "d_model": int(words[1])}


def _name_inputs(words, args):
    """Read --copy's names and build their snippet."""
    return {"source": snippet(*words or [])}


def _seed_of(args):
    """Return --seed, checked, or the default seed."""
    return _seed(_given(args, "seed", SEED))


def _given(args, name, default):
    """Return an option's value, or its default if it was not given."""
    return default if args[name] is None else args[name]


def print_snippet(source):
    """Print a snippet of source code as it is."""
    print(source, end="")


# The options a view may take: (metavar, type, help).
OPTIONS = {
    "--seed": ("N", int, f"seed for the random table, or for training "
                         f"(default: {SEED})"),
    "--d-model": ("N", int, f"numbers per row, 1 to {MAX_D_MODEL:,} "
                            f"(default: {D_MODEL})"),
    "--padding-idx": ("ID", int, "zero this row after drawing them all, as PyTorch's "
                                  "padding_idx does; -1 is the last row"),
    "--svg": ("PATH", str, "also draw the table as a heatmap into this SVG file"),
}
_LESSON = ("WORDS", "--seed", "--d-model", "--padding-idx")
# One row per view: its flag (None: no flag), the function that prints it, the
# function that reads its inputs, the WORDS and options it takes, and its help.
VIEWS = {
    None: (print_lookup, _lesson_inputs, _LESSON + ("--svg",), ""),
    "--table": (print_table, _lesson_inputs, _LESSON + ("--svg",),
                "print every row, marking the rows the text looks up"),
    "--one-hot": (print_one_hot, _lesson_inputs, _LESSON + ("--svg",),
                  "show that one-hot x table gives the very rows the lookup reads"),
    "--learn": (print_learning, _learning_inputs, _LESSON,
                "take one gradient step for the text: only its rows move"),
    "--params": (print_params, _size_inputs, ("WORDS",),
                 "count a table's parameters; WORDS: VOCAB_SIZE D_MODEL "
                 "(default: 128000 4096)"),
    "--train": (print_training, _seed_inputs, ("--seed",),
                "train word vectors: refund ~ return, before and after"),
    "--context": (print_context, _seed_inputs, ("--seed",),
                  "show attention giving bank a new vector in each of two sentences"),
    "--search": (print_search, _query_inputs, ("WORDS", "--seed"),
                 "rank the training sentences by sentence vector; WORDS: a query"),
    "--copy": (print_snippet, _name_inputs, ("WORDS",),
               "print paste-ready source; WORDS: functions or constants to copy"),
}


def main(argv=None):
    """Run the command line; return the exit status.

    0 when all went well, 2 after a one-line error, 1 when a pipe's reader has
    left (as with `| head`), and 130 after Ctrl-C, as the shell counts it.

    >>> main(["my", "order"])
    token ids: [1, 4]
    my      -> row 1: [0.47, 0.35, 0.78, -0.83]
    order   -> row 4: [-0.56, 0.18, 0.62, -0.99]
    table shape: 6 x 4
    0
    """
    if isinstance(argv, (str, bytes)):
        raise TypeError(f"argv must be a list of arguments, not {type(argv).__name__}: "
                        f"{argv!r} (split it first)")
    if sys.stdout is None:  # started with `>&-`
        return _fail("standard output is closed, so there is nowhere to print")
    try:
        status = _run(sys.argv[1:] if argv is None else list(argv))
        sys.stdout.flush()  # a full disk or a closed pipe shows up here, not at exit
    except KeyboardInterrupt:  # Ctrl-C: stop quietly, with the shell's status for it
        return 130
    except OSError as error:  # standard output failed: a closed pipe, a full disk
        return _lost_output(error)
    return status


def _run(argv):
    """Read the command line and the view's inputs, catching mistakes; then print it."""
    try:
        args = _parse(argv)
        view, read, takes, _ = VIEWS[args["view"]]
        _refuse_unused(args, takes)
        inputs = read(_words(args["words"]), args)
    except SystemExit as leaving:  # argparse has printed the help, or a mistake
        return leaving.code
    except (ValueError, IndexError) as error:
        return _fail(str(error))
    if args["svg"] is not None:
        try:
            write_svg(args["svg"], inputs["figure"])
        except OSError as error:
            return _fail(f"cannot write the figure to {args['svg']!r}: "
                         f"{_reason(error)}")
    takes_inputs = view.__code__.co_varnames[:view.__code__.co_argcount]
    view(*(inputs[name] for name in takes_inputs))
    return 0


def _refuse_unused(args, takes):
    """Refuse WORDS or options that the view would silently ignore."""
    given = (["WORDS"] if args["words"] else []) + [
        flag for flag in OPTIONS if args[_dest(flag)] is not None]
    unused = [flag for flag in given if flag not in takes]
    if unused:
        raise ValueError(f"{args['view']} does not take {', '.join(unused)}")


def _parse(argv):
    """Read the command line into a dict: the view's flag, the WORDS, each option."""
    if not argv:  # the lesson's run: skip argparse, which doubles the start-up time
        return {"view": None, "words": [], **{_dest(flag): None for flag in OPTIONS}}
    parser = _parser()
    args = vars(parser.parse_intermixed_args(argv))
    for name, flag in [("view", None)] + [(_dest(flag), flag) for flag in OPTIONS]:
        given = args[name] or []  # every flag appends, so that a repeat shows
        if len(given) > 1:  # argparse would let the last one quietly win
            parser.error(f"argument {flag or given[0]}: given twice")
        args[name] = given[0] if given else None
    return args


def _dest(flag):
    return flag[2:].replace("-", "_")


def _parser():
    """Build the parser from OPTIONS and VIEWS; a mistake exits 2 with one line."""
    import argparse  # here, not at the top: it doubles the start-up time
    parser = argparse.ArgumentParser(
        prog="tokembed.py", usage="%(prog)s [options] [VIEW] [WORDS ...]",
        add_help=False, description=HELP_DESCRIPTION, epilog=HELP_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("words", nargs="*", metavar="WORDS", help=HELP_WORDS)
    options = parser.add_argument_group("options")
    options.add_argument("-h", "--help", action="help", help="show this help and exit")
    for flag, (metavar, kind, text) in OPTIONS.items():
        options.add_argument(flag, metavar=metavar, type=kind, action="append",
                             help=text)
    views = parser.add_argument_group("VIEW, one at a time")
    views = views.add_mutually_exclusive_group()
    for flag, (_, _, _, text) in VIEWS.items():
        if flag:
            views.add_argument(flag, dest="view", action="append_const", const=flag,
                               help=text)
    parser.error = lambda message: parser.exit(2, f"tokembed.py: error: {message}\n")
    # argparse would hide a failed write of the help: print it where failures show
    parser.print_help = lambda file=None: print(parser.format_help(), end="", file=file)
    return parser


HELP_DESCRIPTION = """\
Turn text into token IDs, then into rows of an embedding table, as
the lesson does. With no flags: the lesson's output."""
HELP_WORDS = (f"the text, from the vocabulary: {', '.join(VOCAB)} (default: {TEXT}); "
              "- reads it from standard input")
HELP_EXAMPLES = """examples:
  python3 tokembed.py my order is late
  echo "my order is late" | python3 tokembed.py -
  python3 tokembed.py --table --svg table.svg
  python3 tokembed.py --learn my order order
  python3 tokembed.py --params 50257 768
  python3 tokembed.py --search please return my order
  python3 tokembed.py --copy lookup > lesson.py"""


def _words(words):
    """Return the WORDS, or None if none were given; a lone '-' reads standard input."""
    if "-" not in words:
        return words or None
    if words != ["-"]:
        raise ValueError("'-' reads the words from standard input, so give it alone")
    if sys.stdin is None:
        raise ValueError("'-' reads the words from standard input, but it is closed")
    try:
        return sys.stdin.read().split()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read standard input: {_reason(error)}") from None


def _reason(error):
    """Say in a few lowercase words why an OSError happened."""
    import errno  # here, not at the top: only errors need it
    known = {errno.EISDIR: "is a folder, not a file",
             errno.ENXIO: "nothing is reading it"}
    return known.get(getattr(error, "errno", None)) or (
        getattr(error, "strerror", None) or str(error)).lower()


def _lost_output(error):
    """Report that standard output failed; keep Python from failing again at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no file behind sys.stdout: nothing to silence
        pass
    if isinstance(error, BrokenPipeError):  # piped into `head`, say: stop quietly
        return 1
    return _fail(f"cannot write the output: {_reason(error)}")


def _fail(message):
    """Print one line on standard error; return the exit status for a mistake."""
    if sys.stderr is not None:
        print(f"tokembed.py: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
