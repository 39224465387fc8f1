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

Run ``python tokembed.py`` to see the lesson's output, ``--help`` for more.
"""

__all__ = ["VOCAB", "D_MODEL", "SEED", "TEXT", "make_table", "encode",
           "decode", "lookup", "main"]

import random
import sys

VOCAB = ["<pad>", "my", "is", "refund", "order", "late"]
D_MODEL = 4
SEED = 42
TEXT = "refund my order"
MAX_D_MODEL = 65_536  # 4x the widest real model (Llama 3.1 405B: 16,384)


# --- the lesson, one step per function ---------------------------------------

def make_table(n_rows, d_model, seed=SEED):
    """Return an n_rows x d_model table of random numbers in [-1, 1].

    >>> make_table(2, 3, seed=7)
    [[-0.35, -0.7, 0.3], [-0.86, 0.07, -0.27]]
    """
    _check_size("n_rows", n_rows)
    _check_size("d_model", d_model)
    _check_int("seed", seed)
    rng = random.Random(seed)  # our own generator: the global one is untouched
    return [[round(rng.uniform(-1, 1), 2) for _ in range(d_model)]
            for _ in range(n_rows)]


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


# --- input checks: clear errors instead of Python's silent surprises ---------

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


# --- command line -------------------------------------------------------------

def print_lookup(words, ids, table):
    """Print the lesson's view: the IDs, each token's row, the table's shape."""
    print("token ids:", ids)
    for word, i, row in zip(words, ids, lookup(table, ids)):
        print(f"{word:7} -> row {i}: {row}")
    print("table shape:", len(table), "x", len(table[0]))


def main(argv=None):
    """Run the lesson from the command line; return the exit status."""
    import argparse  # here, not at the top: it doubles the start-up time
    parser = argparse.ArgumentParser(
        prog="tokembed.py",
        description="Turn text into token IDs, then into rows of an "
                    "embedding table, as the lesson does.")
    parser.add_argument("text", nargs="*", default=[TEXT],
                        help=f"words from the vocabulary, quoted or not "
                             f"(default: {TEXT}); vocabulary: {', '.join(VOCAB)}")
    parser.add_argument("--seed", type=int, default=SEED,
                        help=f"seed for the random table (default: {SEED})")
    parser.add_argument("--d-model", type=int, default=D_MODEL,
                        help=f"numbers per row, 1 to {MAX_D_MODEL:,} "
                             f"(default: {D_MODEL})")
    # one line on stderr, exit status 2: no usage dump, no traceback
    parser.error = lambda message: sys.exit(_fail(message))
    args = parser.parse_args(argv)
    text = " ".join(args.text)
    if not 1 <= args.d_model <= MAX_D_MODEL:
        return _fail(f"argument --d-model: must be 1 to {MAX_D_MODEL:,}, "
                     f"got {args.d_model}")
    try:
        ids = encode(text)
    except ValueError as error:
        return _fail(str(error))
    print_lookup(text.split(), ids,
                 make_table(len(VOCAB), args.d_model, args.seed))
    return 0


def _fail(message):
    print(f"tokembed.py: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
