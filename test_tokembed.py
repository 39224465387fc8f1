"""Tests for tokembed: the lesson's output byte for byte, then every claim.

The golden bytes below are copied from the lesson's printed output. Other
expected values come from the lesson, from the lesson's own recipe
(``lesson_table``), or are worked out by hand in the tables; only the views
of trained vectors (--train, --context, --search) are checked against
tokembed's own pieces, each tested on its own first. The sections follow the
module's: the lesson, one block per claim, the views, the figure and its
file, copying, the command line, the docs.
"""

import doctest
import functools
import math
import os
import pathlib
import random
import signal
import stat
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

import pytest

import tokembed
from tokembed import (VOCAB, D_MODEL, SEED, TEXT, CORPUS, make_table, encode, decode,
                      lookup, one_hot, vecmat, param_count, lookup_backward, sgd_step,
                      dot, cosine, context_pairs, sgns_step, train_embeddings, nearest,
                      softmax, attend, sentence_vector, search, colour, svg_figure,
                      write_svg, snippet, main)

HERE = pathlib.Path(__file__).resolve().parent
README = (HERE / "README.md").read_text(encoding="utf-8")
LESSON_OUTPUT = (
    b"token ids: [3, 1, 4]\n"
    b"refund  -> row 3: [-0.95, -0.6, 0.3, 0.09]\n"
    b"my      -> row 1: [0.47, 0.35, 0.78, -0.83]\n"
    b"order   -> row 4: [-0.56, 0.18, 0.62, -0.99]\n"
    b"table shape: 6 x 4\n"
)
SEEDS = [SEED] + list(range(0, 1000, 40))  # the default seed and 25 others


def lesson_table(n_rows, d_model, seed):
    """The lesson's comprehension, verbatim apart from the sizes."""
    rng = random.Random(seed)
    return [[round(rng.uniform(-1, 1), 2) for _ in range(d_model)] for _ in range(n_rows)]


def run_script(*args, **options):
    """Run tokembed.py as a learner would; return (status, stdout, stderr) as bytes."""
    if "stdout" not in options and "stderr" not in options:
        options["capture_output"] = True
    done = subprocess.run([sys.executable, str(HERE / "tokembed.py"), *args],
                          cwd=HERE, timeout=120, **options)
    return done.returncode, done.stdout, done.stderr


def run_main(argv, capsys):
    """Call main() in-process; return (status, stdout, stderr) as text."""
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@functools.lru_cache(maxsize=None)
def trained(seed, epochs=tokembed.TRAIN_EPOCHS, order=None):
    """Train once per (seed, epochs, ID order) for the whole suite; tests only read it."""
    vocab, table = train_embeddings(seed, epochs=epochs, vocab=order and list(order))
    return vocab, table, dict(zip(vocab, table))


class Index:
    """An integer type that is not int, as NumPy's int64 is: it has __index__."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


# --- the lesson, byte for byte -------------------------------------------------------

@pytest.mark.parametrize("command", [["tokembed.py"], ["-m", "tokembed"]])
def test_lesson_output_is_exact(command):
    done = subprocess.run([sys.executable, *command], capture_output=True,
                          cwd=HERE, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, LESSON_OUTPUT, b"")


def test_lesson_ids():
    assert encode("refund my order") == [3, 1, 4]


@pytest.mark.parametrize("word, token_id, row", [
    ("refund", 3, [-0.95, -0.6, 0.3, 0.09]),
    ("my", 1, [0.47, 0.35, 0.78, -0.83]),
    ("order", 4, [-0.56, 0.18, 0.62, -0.99]),
])
def test_lesson_rows(word, token_id, row):
    table = make_table(len(VOCAB), D_MODEL)
    assert encode(word) == [token_id]
    assert lookup(table, [token_id]) == [row]
    assert f"{word:7} -> row {token_id}: {row}\n".encode() in LESSON_OUTPUT


def test_lesson_table_shape():
    table = make_table(len(VOCAB), D_MODEL)
    assert (len(table), {len(row) for row in table}) == (6, {4})
    assert all(type(x) is float for row in table for x in row)


@pytest.mark.parametrize("n_rows, d_model, seed", [
    (6, 4, 42), (6, 4, 0), (1, 1, 42), (6, 8, 7), (100, 3, 123), (3, 300, 5), (2, 2, 2**70),
])
def test_make_table_follows_the_lessons_recipe(n_rows, d_model, seed):
    assert make_table(n_rows, d_model, seed) == lesson_table(n_rows, d_model, seed)


def test_make_table_leaves_global_random_alone():
    random.seed(1)
    expected = [random.random() for _ in range(3)]
    random.seed(1)
    make_table(6, 4)
    assert [random.random() for _ in range(3)] == expected


# --- encode, decode, lookup ------------------------------------------------------------

@pytest.mark.parametrize("text, ids", [
    ("refund my order", [3, 1, 4]),
    ("my order is late", [1, 4, 2, 5]),
    ("  refund\tmy\norder  ", [3, 1, 4]),  # any whitespace splits
    ("<pad> <pad>", [0, 0]),
    ("", []),
])
def test_encode(text, ids):
    assert encode(text) == ids


@pytest.mark.parametrize("text", ["refund my order", "my order is late", "late",
                                  "<pad> is is", ""])
def test_decode_undoes_encode(text):
    assert decode(encode(text)) == text


@pytest.mark.parametrize("vocab", [["a", "b", "c"], ("a", "b", "c")])
def test_encode_and_decode_take_any_vocabulary(vocab):
    assert encode("c a b", vocab) == [2, 0, 1]
    assert decode([2, 0, 1], vocab) == "c a b"


@pytest.mark.parametrize("text, message", [
    ("Refund my order", "unknown token 'Refund' at position 0 (did you mean 'refund'?); "
                        "vocabulary: <pad>, my, is, refund, order, late"),
    ("refund my order.", "unknown token 'order.' at position 2 (did you mean 'order'?); "
                         "vocabulary: <pad>, my, is, refund, order, late"),
    ("refund my shoes", "unknown token 'shoes' at position 2; "
                        "vocabulary: <pad>, my, is, refund, order, late"),
])
def test_encode_names_the_unknown_word(text, message):
    with pytest.raises(ValueError) as caught:
        encode(text)
    assert str(caught.value) == message


def test_lookup_returns_copies():
    table = make_table(6, 4)
    before = [list(row) for row in table]
    rows = lookup(table, [3, 3])
    rows[0][0] = 99.0
    assert table == before
    assert rows[1] == before[3]


@pytest.mark.parametrize("ids, expected", [
    ([Index(3), Index(1)], [3, 1]),  # NumPy-style integers index as Python's do
    ((3, 1), [3, 1]),
    (range(2), [0, 1]),
    (iter([5]), [5]),
])
def test_lookup_takes_any_sequence_of_integers(ids, expected):
    table = make_table(6, 4)
    assert lookup(table, ids) == [table[i] for i in expected]


BAD_IDS = {  # what a learner might pass as ids: (ids, error, message), for 6 rows
    "minus one": ([-1], IndexError, "token ID -1 at position 0 is out of range; "
                                    "valid IDs are 0 to 5"),
    "too big": ([3, 6], IndexError, "token ID 6 at position 1 is out of range; "
                                    "valid IDs are 0 to 5"),
    "huge": ([10**20], IndexError, f"token ID {10**20} at position 0 is out of range; "
                                   "valid IDs are 0 to 5"),
    "bool": ([True], TypeError, "token ID at position 0 must be an int, not bool: True"),
    "float": ([1.0], TypeError, "token ID at position 0 must be an int, not float: 1.0"),
    "str ID": (["3"], TypeError, "token ID at position 0 must be an int, not str: '3'"),
    "None": ([None], TypeError, "token ID at position 0 must be an int, not NoneType: None"),
    "bare int": (3, TypeError, "ids must be a list of token IDs, not int: 3 (write [3])"),
    "text": ("my", TypeError, "ids must be a list of token IDs, not str: 'my' "
                              "(encode the text first)"),
    "bytes": (b"\x03", TypeError, "ids must be a list of token IDs, not bytes: b'\\x03'"),
    "dict": ({3: 1}, TypeError, "ids must be a list of token IDs, not dict: {3: 1}"),
    "set": ({3}, TypeError, "ids must be a list of token IDs, not set: {3}"),
}


@pytest.mark.parametrize("ids, error, message", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_lookup_rejects_bad_ids(ids, error, message):
    with pytest.raises(error) as caught:
        lookup(make_table(6, 4), ids)
    assert str(caught.value) == message


@pytest.mark.parametrize("ids, error, message", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_decode_rejects_bad_ids_like_lookup(ids, error, message):
    with pytest.raises(error) as caught:
        decode(ids)
    assert str(caught.value) == message


@pytest.mark.parametrize("args, error, message", [
    ((0, 4), ValueError, "n_rows must be at least 1, got 0"),
    ((6, -2), ValueError, "d_model must be at least 1, got -2"),
    ((6, 4.0), TypeError, "d_model must be an int, not float: 4.0"),
    (("6", 4), TypeError, "n_rows must be an int, not str: '6'"),
    ((6, True), TypeError, "d_model must be an int, not bool: True"),
    ((6, 4, None), TypeError, "seed must be an int, not NoneType: None"),
    ((6, 4, 4.2), TypeError, "seed must be an int, not float: 4.2"),
    ((6, 4, -5), ValueError, "seed must be at least 0, got -5 (random.Random(-5) draws "
                             "what random.Random(5) draws, so a negative seed would only "
                             "repeat one)"),
])
def test_make_table_rejects_bad_sizes_and_seeds(args, error, message):
    with pytest.raises(error) as caught:
        make_table(*args)
    assert str(caught.value) == message


def test_make_table_takes_numpy_style_integers():
    assert make_table(Index(6), Index(4), Index(42)) == make_table(6, 4, 42)


VOCAB_ERRORS = {  # (vocab, error, message)
    "a string": ("my order", TypeError,
                 "vocab must be a list or tuple of str, not str: 'my order'"),
    "a dict": ({"my": 0}, TypeError, "vocab must be a list or tuple of str, not dict: {'my': 0}"),
    "a number": (["my", 7], TypeError, "vocab[1] must be a str, not int: 7"),
    "twice": (["my", "is", "my"], ValueError,
              "vocab lists 'my' twice; each word needs one ID"),
    "a space": (["my order"], ValueError, "vocab[0] is 'my order'; a word must be "
                "printable, with no spaces, since encode splits text at whitespace"),
    "empty": ([""], ValueError, "vocab[0] is ''; a word must be "
              "printable, with no spaces, since encode splits text at whitespace"),
    "a control character": (["my\x01"], ValueError, "vocab[0] is 'my\\x01'; a word must be "
                            "printable, with no spaces, since encode splits text at whitespace"),
}


@pytest.mark.parametrize("vocab, error, message", VOCAB_ERRORS.values(), ids=VOCAB_ERRORS.keys())
def test_a_vocabulary_is_a_list_of_distinct_words(vocab, error, message):
    """A str vocabulary would match substrings: encode("y", "my order") gave [1]."""
    for use in (lambda: encode("y", vocab), lambda: decode([0], vocab)):
        with pytest.raises(error) as caught:
            use()
        assert str(caught.value) == message


@pytest.mark.parametrize("text, message", [
    (["refund"], "text must be a str, not list: ['refund']"),
    (b"refund", "text must be a str, not bytes: b'refund'"),
])
def test_encode_wants_text(text, message):
    with pytest.raises(TypeError) as caught:
        encode(text)
    assert str(caught.value) == message


# --- claim: the lookup is a one-hot vector times the table ----------------------------

@pytest.mark.parametrize("token_id, size, expected", [
    (0, 1, [1]), (3, 6, [0, 0, 0, 1, 0, 0]), (5, 6, [0, 0, 0, 0, 0, 1]), (0, 3, [1, 0, 0]),
])
def test_one_hot(token_id, size, expected):
    assert one_hot(token_id, size) == expected
    assert all(type(x) is int for x in one_hot(token_id, size))


@pytest.mark.parametrize("token_id, error, message", [
    (-1, IndexError, "token ID -1 is out of range; valid IDs are 0 to 5"),
    (6, IndexError, "token ID 6 is out of range; valid IDs are 0 to 5"),
    (2.0, TypeError, "token ID must be an int, not float: 2.0"),
    (True, TypeError, "token ID must be an int, not bool: True"),
])
def test_one_hot_rejects_bad_ids(token_id, error, message):
    with pytest.raises(error) as caught:
        one_hot(token_id, 6)
    assert str(caught.value) == message


@pytest.mark.parametrize("vector, matrix, expected", [
    ([1, 2], [[1, 2], [3, 4]], [7.0, 10.0]),
    ([0.5, -1.0, 2.0], [[2.0], [3.0], [0.25]], [-1.5]),
    # fsum rounds once: 0.6, where adding left to right gives 0.6000000000000001
    ([1, 1, 1], [[0.1, 0.2], [0.2, 0.3], [0.3, 0.4]], [0.6, 0.9]),
    ([0, 0], [[5, 6, 7], [8, 9, 10]], [0.0, 0.0, 0.0]),
])
def test_vecmat_is_a_real_product(vector, matrix, expected):
    assert vecmat(vector, matrix) == expected


@pytest.mark.parametrize("vector, matrix, message", [
    ([1, 2, 3], [[1, 2], [3, 4]], "len(vector) is 3 but len(matrix) is 2; they must match"),
    ([1], [[1, 2], [3, 4]], "len(vector) is 1 but len(matrix) is 2; they must match"),
    ([1, 2], [[1, 2], [3]], "matrix must hold rows of one length, 1 or more; "
                            "got row lengths [1, 2]"),
    ([], [], "matrix must hold rows of one length, 1 or more; got row lengths []"),
    ([1], [[]], "matrix must hold rows of one length, 1 or more; got row lengths [0]"),
])
def test_vecmat_rejects_mismatched_shapes(vector, matrix, message):
    with pytest.raises(ValueError) as caught:
        vecmat(vector, matrix)
    assert str(caught.value) == message


@pytest.mark.parametrize("n_rows, d_model, seed", [(6, 4, 42), (6, 8, 7), (10, 3, 0),
                                                   (1, 5, 9), (50, 16, 123)])
def test_one_hot_times_table_is_the_lookup_for_every_row(n_rows, d_model, seed):
    table = make_table(n_rows, d_model, seed)
    for i in range(n_rows):
        assert vecmat(one_hot(i, n_rows), table) == table[i] == lookup(table, [i])[0]


ONE_HOT_VIEW = (
    "token ids: [3, 1, 4]\n"
    "refund  one-hot          [0, 0, 0, 1, 0, 0]\n"
    "        one-hot x table  [-0.95, -0.6, 0.3, 0.09]\n"
    "        row 3 by lookup  [-0.95, -0.6, 0.3, 0.09]\n"
    "my      one-hot          [0, 1, 0, 0, 0, 0]\n"
    "        one-hot x table  [0.47, 0.35, 0.78, -0.83]\n"
    "        row 1 by lookup  [0.47, 0.35, 0.78, -0.83]\n"
    "order   one-hot          [0, 0, 0, 0, 1, 0]\n"
    "        one-hot x table  [-0.56, 0.18, 0.62, -0.99]\n"
    "        row 4 by lookup  [-0.56, 0.18, 0.62, -0.99]\n"
    "product equals lookup for every token: True\n"
    "cost per token         lookup reads  one-hot x table multiplies\n"
    "6 x 4 table                       4                          24\n"
    "128,000 x 4,096 table         4,096                 524,288,000\n")


def test_cli_one_hot(capsys):
    assert run_main(["--one-hot"], capsys) == (0, ONE_HOT_VIEW, "")


def test_cli_one_hot_explains_negative_zero(capsys):
    """Seed 43 draws -0.0 in row 1; the product's sum writes it 0.0. Both are shown."""
    status, out, _ = run_main(["--one-hot", "my", "--seed", "43"], capsys)
    assert status == 0 and out.splitlines()[2:6] == [
        "        one-hot x table  [0.34, 0.59, -0.09, 0.0]",
        "        row 1 by lookup  [0.34, 0.59, -0.09, -0.0]",
        "product equals lookup for every token: True",
        "(-0.0 is 0.0 with a sign: they are equal, and a sum writes it 0.0)"]


# --- claim: a real table holds about 524 million numbers -------------------------------

@pytest.mark.parametrize("vocab_size, d_model, expected", [
    (128_000, 4096, 524_288_000), (6, 4, 24), (50_257, 768, 38_597_376), (1, 1, 1),
    (Index(6), Index(4), 24),
])
def test_param_count(vocab_size, d_model, expected):
    assert param_count(vocab_size, d_model) == expected


def test_param_count_is_the_size_of_the_table():
    assert param_count(7, 3) == sum(len(row) for row in make_table(7, 3))


@pytest.mark.parametrize("args, error, message", [
    ((0, 4), ValueError, "vocab_size must be at least 1, got 0"),
    ((6, -1), ValueError, "d_model must be at least 1, got -1"),
    ((6.5, 4), TypeError, "vocab_size must be an int, not float: 6.5"),
])
def test_param_count_rejects_bad_sizes(args, error, message):
    with pytest.raises(error) as caught:
        param_count(*args)
    assert str(caught.value) == message


REAL_MODELS_TABLE = (
    "input embedding tables of real models:\n"
    "  model        vocabulary  d_model   parameters      fp32     bf16\n"
    "  GPT-2 small      50,257      768   38,597,376  154.4 MB  77.2 MB\n"
    "  BERT-base        30,522      768   23,440,896   93.8 MB  46.9 MB\n"
    "  Llama 3 8B      128,256    4,096  525,336,576    2.1 GB   1.1 GB\n"
)


@pytest.mark.parametrize("argv, head", [
    (["--params"], "embedding table: 128,000 tokens x 4,096 numbers = 524,288,000 parameters\n"
                   "  in fp32 (4 bytes a number): 2.1 GB\n"
                   "  in bf16/fp16 (2 bytes a number): 1.0 GB\n"),
    (["--params", "6", "4"], "embedding table: 6 tokens x 4 numbers = 24 parameters\n"
                             "  in fp32 (4 bytes a number): 96 bytes\n"
                             "  in bf16/fp16 (2 bytes a number): 48 bytes\n"),
    (["--params", "1", "1"], "embedding table: 1 token x 1 number = 1 parameter\n"
                             "  in fp32 (4 bytes a number): 4 bytes\n"
                             "  in bf16/fp16 (2 bytes a number): 2 bytes\n"),
    # 999,996 bytes is 999.996 kB, which one decimal would round to "1,000.0 kB"
    (["--params", "249999", "1"], "embedding table: 249,999 tokens x 1 number = "
                                  "249,999 parameters\n"
                                  "  in fp32 (4 bytes a number): 1.0 MB\n"
                                  "  in bf16/fp16 (2 bytes a number): 500.0 kB\n"),
    (["--params", "50257", "768"], "embedding table: 50,257 tokens x 768 numbers = "
                                   "38,597,376 parameters\n"
                                   "  in fp32 (4 bytes a number): 154.4 MB\n"
                                   "  in bf16/fp16 (2 bytes a number): 77.2 MB\n"),
    (["--params", "1000000000000", "1000000000000"],
     "embedding table: 1,000,000,000,000 tokens x 1,000,000,000,000 numbers =\n"
     "  1,000,000,000,000,000,000,000,000 parameters\n"
     "  in fp32 (4 bytes a number): 4.0 YB\n"
     "  in bf16/fp16 (2 bytes a number): 2.0 YB\n"),
])
def test_cli_params(argv, head, capsys):
    assert run_main(argv, capsys) == (0, head + REAL_MODELS_TABLE, "")


# --- claim: the table is learned like every other weight -------------------------------

@pytest.mark.parametrize("grad_rows, ids, n_rows, padding_idx, expected", [
    # a row that no ID looks up gets all zeros
    ([[1.0, 2.0]], [1], 3, None, [[0.0, 0.0], [1.0, 2.0], [0.0, 0.0]]),
    # an ID twice gets the sum of its rows: the classic bug overwrites instead
    ([[1.0, 2.0], [0.5, 0.5]], [1, 1], 3, None, [[0.0, 0.0], [1.5, 2.5], [0.0, 0.0]]),
    ([[1.0], [2.0], [4.0]], [0, 2, 0], 3, None, [[5.0], [0.0], [2.0]]),
    # the padding row gets no gradient, so training never moves it (as in PyTorch)
    ([[1.0, 1.0], [3.0, 3.0]], [0, 2], 3, 0, [[0.0, 0.0], [0.0, 0.0], [3.0, 3.0]]),
    ([[1.0, 1.0], [3.0, 3.0]], [0, 2], 3, -1, [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]),
])
def test_lookup_backward(grad_rows, ids, n_rows, padding_idx, expected):
    assert lookup_backward(grad_rows, ids, n_rows, padding_idx) == expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lookup_backward_is_one_hot_transposed(seed):
    """The gradient is the sum over positions of one_hot(ID) as a column times the row."""
    rng = random.Random(seed)
    n_rows, ids = 5, [rng.randrange(5) for _ in range(7)]
    grad_rows = [[rng.choice([0.5, 1.0, -2.0]) for _ in range(3)] for _ in ids]
    outer = [[[h * x for x in row] for h in one_hot(i, n_rows)]
             for i, row in zip(ids, grad_rows)]
    summed = [[math.fsum(cell[r][c] for cell in outer) for c in range(3)]
              for r in range(n_rows)]
    assert lookup_backward(grad_rows, ids, n_rows) == summed


@pytest.mark.parametrize("grad_rows, ids, error, message", [
    ([[1.0]], [-1], IndexError, "token ID -1 at position 0 is out of range; "
                                "valid IDs are 0 to 2"),
    ([[1.0]], [1.0], TypeError, "token ID at position 0 must be an int, not float: 1.0"),
    ([[1.0]], [1, 2], ValueError, "len(grad_rows) is 1 but len(ids) is 2; "
                                  "give one gradient row per ID"),
    ([[1.0], [1.0, 2.0]], [1, 2], ValueError, "grad_rows must hold rows of one length, "
                                              "1 or more; got row lengths [1, 2]"),
    ([], [], ValueError, "grad_rows must hold rows of one length, 1 or more; "
                         "got row lengths []"),
])
def test_lookup_backward_rejects_bad_input(grad_rows, ids, error, message):
    with pytest.raises(error) as caught:
        lookup_backward(grad_rows, ids, 3)
    assert str(caught.value) == message


def test_sgd_step_moves_only_rows_with_a_gradient():
    table = make_table(6, 4)
    after = sgd_step(table, lookup_backward([[1.0] * 4] * 3, [4, 1, 4], 6), 0.1)
    assert [repr(after[i]) for i in (0, 2, 3, 5)] == [repr(table[i]) for i in (0, 2, 3, 5)]
    assert after[1] == [x - 0.1 for x in table[1]]
    assert after[4] == [x - 0.2 for x in table[4]]  # looked up twice: twice as far


def test_sgd_step_wants_the_tables_shape():
    with pytest.raises(ValueError, match="^grad must have the table's shape: "
                                         "one number per number$"):
        sgd_step([[1.0, 2.0]], [[1.0]], 0.1)


LEARN_VIEW = (
    "token ids: [1, 4, 4]\n"
    "toy loss: the sum of the looked-up numbers, so each position adds 1 to\n"
    "the gradient of every number in its row; learning rate 0.1\n"
    "id  token   looked up  gradient  step  row after the step\n"
    "0   <pad>   -          0         0     [ 0.28, -0.95, -0.45, -0.55]\n"
    "1   my      1 time     1.0 each  -0.1  [ 0.37,  0.25,  0.68, -0.93]\n"
    "2   is      -          0         0     [-0.16, -0.94, -0.56,  0.01]\n"
    "3   refund  -          0         0     [-0.95, -0.60,  0.30,  0.09]\n"
    "4   order   2 times    2.0 each  -0.2  [-0.76, -0.02,  0.42, -1.19]\n"
    "5   late    -          0         0     [ 0.61,  0.40, -0.32, -0.69]\n"
    "rows with no gradient are unchanged, byte for byte: True\n"
    "order, looked up 2 times, gets 2 x the gradient: it moves 2 times as far\n")


def test_cli_learn(capsys):
    assert run_main(["--learn", "my", "order", "order"], capsys) == (0, LEARN_VIEW, "")


def test_cli_learn_never_moves_the_padding_row(capsys):
    status, out, _ = run_main(["--learn", "<pad>", "<pad>", "--padding-idx", "0"], capsys)
    assert status == 0
    assert "0   <pad>   2 times    0, padding  0     [ 0.00,  0.00,  0.00,  0.00]" in out
    assert "moves" not in out  # the padding row is looked up twice, yet stays put


# --- claims: training makes words used alike end up alike; IDs are only labels --------

@pytest.mark.parametrize("u, v, expected", [
    ([1, 2, 3], [4, 5, 6], 32.0), ([0.1] * 10, [1] * 10, 1.0), ([], [], 0.0),
    ([1e308, -1e308], [1, 1], 0.0),
])
def test_dot(u, v, expected):
    assert dot(u, v) == expected


INFINITE = {  # one rule for inf and nan in dot, vecmat and cosine: a ValueError naming it
    "inf": ([1.0, math.inf], [1.0, 1.0], "vectors must hold finite numbers, got inf"),
    "nan": ([1.0, 1.0], [math.nan, 1.0], "vectors must hold finite numbers, got nan"),
    "-inf + inf": ([math.inf, -math.inf], [1, 1], "vectors must hold finite numbers, got inf"),
    "overflow": ([1e200, 1e200], [1e200, 1e200], "the dot product is too large for a float"),
}


@pytest.mark.parametrize("u, v, message", INFINITE.values(), ids=INFINITE.keys())
def test_dot_and_vecmat_refuse_infinite_numbers(u, v, message):
    for product in (lambda: dot(u, v), lambda: vecmat(u, [[x] for x in v])):
        with pytest.raises(ValueError) as caught:
            product()
        assert str(caught.value) == message


@pytest.mark.parametrize("u, v", [([1.0, math.inf], [1.0, 1.0]), ([math.nan], [1.0])])
def test_cosine_refuses_infinite_numbers_like_dot(u, v):
    with pytest.raises(ValueError, match="^vectors must hold finite numbers, got (inf|nan)$"):
        cosine(u, v)


def test_dot_refuses_vectors_of_unequal_length():
    with pytest.raises(ValueError, match=r"^vectors must have one length, got 2 and 1$"):
        dot([1, 2], [1])


@pytest.mark.parametrize("u, v, expected", [
    ([1, 0], [1, 0], 1.0), ([1, 0], [0, 1], 0.0), ([1, 0], [-1, 0], -1.0),
    ([1, 0], [1, 1], 0.7071067811865475), ([3, 4], [6, 8], 1.0), ([0.5], [-2.0], -1.0),
])
def test_cosine(u, v, expected):
    assert cosine(u, v) == expected


@pytest.mark.parametrize("scale", [1e-300, 1e-100, 1e-80, 1e-5, 1, 1e5, 1e77, 1e200, 1e300])
def test_cosine_is_the_same_at_any_scale(scale):
    """cos([1, 2], [2, 1]) is 4/5 exactly; squaring first broke past about 1e154."""
    assert math.isclose(cosine([scale, 2 * scale], [2 * scale, scale]), 0.8, rel_tol=4e-16)


@pytest.mark.parametrize("u, v, expected", [
    ([0.7], [2.1], 1.0),  # gave 1.0000000000000002, and math.acos failed on it
    ([-0.7], [2.1], -1.0), ([1e200], [1e200], 1.0), ([1e-300, 3e-300], [2e-300, 6e-300], 1.0),
    ([0.1, 0.2, 0.3], [0.3, 0.6, 0.9], None),  # nearly parallel: only the bounds are sure
])
def test_cosine_stays_within_minus_one_and_one(u, v, expected):
    assert -1.0 <= cosine(u, v) <= 1.0
    assert math.acos(cosine(u, v)) >= 0
    assert expected is None or cosine(u, v) == expected


@pytest.mark.parametrize("u, v, message", [
    ([0, 0], [1, 1], "cosine is undefined for a zero vector"),
    ([1, 1], [0.0, -0.0], "cosine is undefined for a zero vector"),
    ([1, 2, 3], [1, 2], "vectors must have one length, got 3 and 2"),
])
def test_cosine_rejects_bad_vectors(u, v, message):
    with pytest.raises(ValueError) as caught:
        cosine(u, v)
    assert str(caught.value) == message


@pytest.mark.parametrize("sentences, window, expected", [
    (["my order is"], 1, [(1, 4), (4, 1), (4, 2), (2, 4)]),
    (["my order is"], 2, [(1, 4), (1, 2), (4, 1), (4, 2), (2, 1), (2, 4)]),
    (["late", "is late"], 2, [(2, 5), (5, 2)]),
])
def test_context_pairs(sentences, window, expected):
    assert context_pairs(sentences, VOCAB, window) == expected


def test_sgns_step_pulls_neighbours_together_and_pushes_others_apart():
    w, c = [1.0, 0.0], [0.5, 0.5]
    before = cosine(w, c)
    sgns_step(w, c, 1, 0.5)
    assert cosine(w, c) > before
    w2, c2 = [1.0, 0.0], [0.5, 0.5]
    sgns_step(w2, c2, 0, 0.5)
    assert cosine(w2, c2) < before


# Checked once outside the suite over seeds 0 to 1,499 (see the README): refund ~
# monsoon passed 0.3 for 10 of them, at most 0.363; the rest held for all.
@pytest.mark.parametrize("seed", SEEDS)
def test_training_makes_refund_and_return_alike(seed):
    vocab, table, row = trained(seed)
    assert cosine(row["refund"], row["return"]) >= 0.9
    assert cosine(row["refund"], row["monsoon"]) <= 0.3
    assert nearest("refund", vocab, table, k=1)[0][0] == "return"


def test_training_starts_random():
    """Before training the same rows are random: refund is not near return."""
    vocab, before, row = trained(SEED, epochs=0)
    assert abs(cosine(row["refund"], row["return"])) < 0.5
    assert nearest("refund", vocab, before, k=1)[0][0] != "return"


def test_training_is_deterministic_and_leaves_global_random_alone():
    random.seed(3)
    expected = random.random()
    random.seed(3)
    first = train_embeddings(SEED, epochs=2)
    assert random.random() == expected
    assert train_embeddings(SEED, epochs=2) == first


@pytest.mark.parametrize("seed", SEEDS[:6])
@pytest.mark.parametrize("shuffle", [1, 2, 3])
def test_an_id_is_only_a_label(seed, shuffle):
    """Number the words another way: refund's nearest word is still return."""
    order = random.Random(shuffle).sample(trained(seed)[0], len(trained(seed)[0]))
    vocab, table, _ = trained(seed, order=tuple(order))
    assert vocab == order and nearest("refund", vocab, table, k=1)[0][0] == "return"


@pytest.mark.parametrize("kwargs, error, message", [
    ({"corpus": "refund my order"}, TypeError,
     "corpus must be a list or tuple of str, not str: 'refund my order'"),
    ({"corpus": ["a b", 3]}, TypeError, "corpus[1] must be a str, not int: 3"),
    ({"epochs": -1}, ValueError, "epochs must be at least 0, got -1"),
    ({"seed": -1}, ValueError, "seed must be at least 0, got -1 (random.Random(-5) draws "
                               "what random.Random(5) draws, so a negative seed would only "
                               "repeat one)"),
    ({"corpus": ["a b"], "vocab": ["a"]}, ValueError, "vocab must list each word of the "
                                                      "corpus once, in any order; missing: "
                                                      "b; not in the corpus: none"),
    ({"corpus": ["a b"], "vocab": ["a", "b", "c"]}, ValueError, "vocab must list each word "
     "of the corpus once, in any order; missing: none; not in the corpus: c"),
    ({"corpus": ["a b"], "vocab": ["b", "a", "a"]}, ValueError,
     "vocab lists 'a' twice; each word needs one ID"),
])
def test_train_embeddings_rejects_bad_input(kwargs, error, message):
    with pytest.raises(error) as caught:
        train_embeddings(**kwargs)
    assert str(caught.value) == message


@pytest.mark.parametrize("word", ["refund", " refund ", "refund\n"])
def test_nearest_never_returns_the_word_itself(word):
    vocab, table, _ = trained(SEED)
    found = nearest(word, vocab, table, k=len(vocab))
    assert len(found) == len(vocab) - 1 and "refund" not in [w for w, _ in found]


def test_nearest_leaves_out_zero_rows():
    vocab, table = ["<pad>", "a", "b", "c"], [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [-1.0, 0.0]]
    assert nearest("a", vocab, table, k=3) == [("b", 0.7071067811865475), ("c", -1.0)]


@pytest.mark.parametrize("word, k, error, message", [
    ("a", 0, ValueError, "k must be at least 1, got 0"),
    ("a", -1, ValueError, "k must be at least 1, got -1"),
    ("a", 1.5, TypeError, "k must be an int, not float: 1.5"),
    ("a b", 1, ValueError, "nearest() takes one word, got 'a b'"),
    ("<pad>", 1, ValueError, "'<pad>' has a zero row: it points nowhere, so nothing is near"),
])
def test_nearest_rejects_bad_input(word, k, error, message):
    vocab, table = ["<pad>", "a", "b"], [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]
    with pytest.raises(error) as caught:
        nearest(word, vocab, table, k)
    assert str(caught.value) == message


def test_cli_train(capsys):
    status, out, err = run_main(["--train"], capsys)
    vocab, before, _ = trained(SEED, epochs=0)
    _, after, row = trained(SEED)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"skip-gram with negative sampling on {len(CORPUS)} sentences: " \
                       f"{len(vocab)} words,"
    refund, back = vocab.index("refund"), vocab.index("return")
    assert lines[3].split() == ["refund", "~", "return", f"{refund},", str(back),
                                f"{cosine(before[refund], before[back]):.3f}",
                                f"{cosine(row['refund'], row['return']):.3f}"]
    best = nearest("refund", vocab, after)
    assert lines[6] == "nearest to refund after:   " + ", ".join(
        f"{word} {score:.3f}" for word, score in best)
    assert lines[10].split()[:5] == ["alphabetical", str(vocab.index("refund")),
                                    str(vocab.index("return")), str(vocab.index("monsoon")),
                                    "return"]
    assert [line.split()[4] for line in lines[10:13]] == ["return"] * 3


# --- claim: the layers above make the vectors contextual -------------------------------

@pytest.mark.parametrize("scores, expected", [
    ([0.0, 0.0], [0.5, 0.5]),
    ([0.0, 0.0, math.log(2)], [0.25, 0.25, 0.5]),
    ([1000.0, -1000.0], [1.0, 0.0]),  # exp(1000) would overflow without the shift
    ([-1000.0, -1000.0], [0.5, 0.5]),  # and exp(-1000) would underflow to 0 / 0
    ([5.0], [1.0]),
])
def test_softmax(scores, expected):
    assert softmax(scores) == expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_softmax_weights_are_positive_and_sum_to_one(seed):
    rng = random.Random(seed)
    weights = softmax([rng.uniform(-50, 50) for _ in range(20)])
    assert all(w >= 0 for w in weights)
    assert math.isclose(math.fsum(weights), 1.0, rel_tol=1e-15)


@pytest.mark.parametrize("row", [[0.3, -0.2], [1e3, -1e3], [0.0, 0.0]])
def test_attend_leaves_a_single_row_unchanged(row):
    assert attend([row]) == [row]


def test_attend_averages_with_softmax_weights():
    rows = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    for row, out in zip(rows, attend(rows)):
        weights = softmax([dot(row, other) / math.sqrt(2) for other in rows])
        assert out == [math.fsum(w * other[j] for w, other in zip(weights, rows))
                       for j in range(2)]


def test_attend_is_safe_with_large_scores():
    out = attend([[1e3, 0.0], [0.0, 1e3]])  # scores of 7e5: exp would overflow
    assert out == [[1e3, 0.0], [0.0, 1e3]]


def bank_in(sentence, seed):
    """bank's output in a sentence, and how far it leans to river over account."""
    vocab, table, row = trained(seed)
    out = attend(lookup(table, encode(sentence, vocab)))[sentence.split().index("bank")]
    def lean(vector):
        return cosine(vector, row["river"]) - cosine(vector, row["account"])
    return out, lean(out) - lean(row["bank"])


# A sweep of seeds 0 to 1,499, once outside the suite, found no exception here, nor
# in the search test below (smallest leans: 0.113 toward river, 0.069 toward account).
@pytest.mark.parametrize("seed", SEEDS)
def test_attention_makes_bank_contextual(seed):
    """One input row for bank; after attend, it leans toward each sentence's sense."""
    river_out, toward_river = bank_in("we walked along the river bank", seed)
    account_out, toward_river_too = bank_in("i opened a bank account", seed)
    assert river_out != account_out
    assert toward_river > 0 > toward_river_too


CONTEXT_HEAD = (
    '"bank" has one row in the trained table (seed 42), whatever the sentence;\n'
    "attend mixes in the words around it, so each sentence gives it a new one\n")


def test_cli_context(capsys):
    status, out, err = run_main(["--context"], capsys)
    vocab, table, row = trained(SEED)
    river_out, _ = bank_in("we walked along the river bank", SEED)
    assert (status, err) == (0, "") and out.startswith(CONTEXT_HEAD)
    lines = out.splitlines()
    river, account = cosine(row["bank"], row["river"]), cosine(row["bank"], row["account"])
    assert lines[3].split()[-3:] == [f"{river:.3f}", f"{account:.3f}",
                                     f"{river - account:+.3f}"]
    assert lines[4].startswith('in "we walked along the river bank"')
    assert lines[4].split()[-3] == f"{cosine(river_out, row['river']):.3f}"
    assert lines[6:] == ["the input row is the same in both sentences: True",
                         "the two outputs differ: True"]


# --- claim: a sentence embedding is not a token embedding ------------------------------

@pytest.mark.parametrize("rows, expected", [
    ([[1.0, 2.0]], [1.0, 2.0]),
    ([[1.0, 2.0], [3.0, 6.0]], [2.0, 4.0]),
    ([[0.1, 0.0]] * 10, [0.1, 0.0]),  # fsum, then divide: no drift from adding 0.1 ten times
])
def test_sentence_vector_is_the_average(rows, expected):
    assert sentence_vector(rows) == expected


@pytest.mark.parametrize("text", ["refund", "please refund my order",
                                  "they will refund the money today"])
def test_one_sentence_vector_whatever_the_length(text):
    vocab, table, _ = trained(SEED)
    rows = attend(lookup(table, encode(text, vocab)))
    assert len(rows) == len(text.split())  # one token vector per token...
    assert len(sentence_vector(rows)) == tokembed.TRAIN_D_MODEL  # ...one sentence vector


@pytest.mark.parametrize("seed", SEEDS)
def test_search_for_refund_finds_return(seed):
    """Training put refund and return together, so the query finds both wordings."""
    vocab, table, _ = trained(seed)
    found = [sentence for sentence, _ in search("refund my order", CORPUS, vocab, table, k=2)]
    assert found == ["please refund my order", "please return my order"] or \
        found == ["please return my order", "please refund my order"]


def test_search_ranks_best_first():
    vocab, table = ["a", "b"], [[1.0, 0.0], [0.0, 1.0]]
    assert search("a", ["b", "a a", "a b"], vocab, table, k=3) == [
        ("a a", 1.0), ("a b", cosine([1.0, 0.0], sentence_vector(attend([[1.0, 0.0],
                                                                        [0.0, 1.0]])))),
        ("b", 0.0)]


def test_cli_search(capsys):
    status, out, err = run_main(["--search", "refund", "my", "order"], capsys)
    vocab, table, _ = trained(SEED)
    assert (status, err) == (0, "")
    assert out.splitlines()[:3] == [
        'query "refund my order": 3 tokens, so 3 token vectors of 24 numbers,',
        "pooled into 1 sentence vector of 24 numbers (trained, seed 42)",
        f"the 5 of the corpus's {len(CORPUS)} sentences nearest to it, by cosine:"]
    assert out.splitlines()[3:] == [f"  {score:.3f}  {sentence}" for sentence, score
                                    in search("refund my order", CORPUS, vocab, table, k=5)]


# --- claim: input embeddings ignore context --------------------------------------------

def test_a_tokens_row_ignores_its_neighbours():
    """'order' is row 4 in any sentence, and 'bank' has one trained row for both senses."""
    table = make_table(6, 4)
    assert lookup(table, encode("refund my order"))[2] == \
        lookup(table, encode("my order is late"))[1] == [-0.56, 0.18, 0.62, -0.99]
    vocab, trained_table, _ = trained(SEED)
    river, account = (lookup(trained_table, encode(s, vocab))
                      for s in ("the river bank", "bank account"))
    assert river[2] == account[0]


# --- claim: the padding row, as PyTorch's padding_idx ----------------------------------

@pytest.mark.parametrize("n_rows, d_model, seed, padding_idx, zeroed", [
    (6, 4, 42, 0, 0), (6, 4, 42, 5, 5), (3, 2, 1, 1, 1),
    (6, 4, 42, -1, 5), (6, 4, 42, -6, 0),  # -1 is the last row, as in nn.Embedding
])
def test_padding_idx_zeroes_one_row_and_keeps_the_rest(n_rows, d_model, seed, padding_idx,
                                                       zeroed):
    padded, plain = make_table(n_rows, d_model, seed, padding_idx), \
        lesson_table(n_rows, d_model, seed)
    assert padded[zeroed] == [0.0] * d_model
    assert [r for i, r in enumerate(padded) if i != zeroed] == \
           [r for i, r in enumerate(plain) if i != zeroed]


@pytest.mark.parametrize("padding_idx, error, message", [
    (6, IndexError, "padding_idx 6 is out of range; valid rows are -6 to 5 "
                    "(-1 is the last, as in PyTorch)"),
    (-7, IndexError, "padding_idx -7 is out of range; valid rows are -6 to 5 "
                     "(-1 is the last, as in PyTorch)"),
    ("0", TypeError, "padding_idx must be an int, not str: '0'"),
])
def test_padding_idx_rejects_bad_rows(padding_idx, error, message):
    with pytest.raises(error) as caught:
        make_table(6, 4, padding_idx=padding_idx)
    assert str(caught.value) == message


def test_cli_padding_idx(capsys):
    status, out, err = run_main(["<pad> my", "--padding-idx", "0"], capsys)
    assert (status, out, err) == (0, "token ids: [0, 1]\n<pad>   -> row 0: [0.0, 0.0, 0.0, 0.0]\n"
                                     "my      -> row 1: [0.47, 0.35, 0.78, -0.83]\n"
                                     "table shape: 6 x 4\n", "")


# --- the views: the whole table, and 80 columns ----------------------------------------

TABLE_VIEW = (
    "token ids: [1, 4, 4]\n"
    "id  token   row                           looked up\n"
    "0   <pad>   [ 0.28, -0.95, -0.45, -0.55]\n"
    "1   my      [ 0.47,  0.35,  0.78, -0.83]  <- position 0\n"
    "2   is      [-0.16, -0.94, -0.56,  0.01]\n"
    "3   refund  [-0.95, -0.60,  0.30,  0.09]\n"
    "4   order   [-0.56,  0.18,  0.62, -0.99]  <- positions 1, 2\n"
    "5   late    [ 0.61,  0.40, -0.32, -0.69]\n"
    "table shape: 6 x 4\n")


def test_cli_table_shows_every_row(capsys):
    assert run_main(["--table", "my order order"], capsys) == (0, TABLE_VIEW, "")


def test_cli_table_counts_many_positions(capsys):
    status, out, _ = run_main(["--table"] + ["order"] * 7, capsys)
    assert status == 0 and "<- 7 positions: 0, 1, 2, ..." in out


@pytest.mark.parametrize("argv", [["--table"], ["--table", "--d-model", "9", "--seed", "5",
                                                "late"]])
def test_cli_table_rows_are_the_tables_rows(argv, capsys):
    status, out, _ = run_main(argv, capsys)
    d_model, seed = (9, 5) if "--d-model" in argv else (4, 42)
    rows = " ".join(out.splitlines()[2:-1]).split("[")[1:]
    numbers = [[float(x) for x in row.split("]")[0].split(",")] for row in rows]
    assert status == 0 and numbers == lesson_table(6, d_model, seed)


WIDE = [[], ["--table"], ["--one-hot"], ["--params"], ["--train"], ["--learn"],
        ["--context"], ["--search"], ["--help"], ["--d-model", "40"],
        ["--table", "--d-model", "16"], ["--one-hot", "--d-model", "16"],
        ["--learn", "--d-model", "16", "order"] + ["my order is late"] * 8,
        ["--params", "1000000000000", "1000000000000"], ["my order is late"] * 20]


@pytest.mark.parametrize("argv", WIDE, ids=[" ".join(a)[:30] or "lesson" for a in WIDE])
def test_every_view_fits_80_columns(argv):
    status, out, _ = run_script(*argv, env={**os.environ, "COLUMNS": "80"})
    lines = out.decode().splitlines()
    assert status == 0 and len(lines) > 2
    assert max(map(len, lines)) <= 80


# --- the figure ------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def parse_svg(text):
    return ElementTree.fromstring(text)


@pytest.mark.parametrize("value, expected", [
    (-1, "#542788"), (0, "#f7f7f7"), (1, "#b35806"), (-0.5, "#a68fc0"), (2, "#b35806"),
    (-0.0, "#f7f7f7"),
])
def test_colour_scale(value, expected):
    assert colour(value) == expected


@pytest.mark.parametrize("argv, d_model, seed, ids, padding", [
    (["--svg"], 4, 42, [3, 1, 4], None),
    (["my order is late", "--d-model", "8", "--seed", "7", "--svg"], 8, 7, [1, 4, 2, 5], None),
    (["<pad> <pad>", "--padding-idx", "0", "--svg"], 4, 42, [0, 0], 0),
    (["my order is late refund my order is late refund my order", "--d-model", "16",
      "--svg"], 16, 42, [1, 4, 2, 5, 3, 1, 4, 2, 5, 3, 1, 4], None),
])
def test_cli_svg_draws_the_table(argv, d_model, seed, ids, padding, tmp_path, capsys):
    path = tmp_path / "table.svg"
    status, out, err = run_main(argv + [str(path)], capsys)
    _, usual, _ = run_main([a for a in argv if a != "--svg"], capsys)
    assert (status, out, err) == (0, usual, "")  # the usual output, unchanged
    root = parse_svg(path.read_text(encoding="utf-8"))
    table = lesson_table(6, d_model, seed)
    if padding is not None:
        table[padding] = [0.0] * d_model
    cells = root.findall(f".//{SVG}rect[@class='cell']")
    assert [(int(c.get("data-row")), float(c.get("data-value"))) for c in cells] == \
           [(i, x) for i, row in enumerate(table) for x in row]
    shown = [t.text for t in root.iter(f"{SVG}text")]
    assert all(f"{x:.2f}" in shown for row in table for x in row)
    outlined = root.findall(f".//{SVG}rect[@class='lookup']")
    assert sorted(int(r.get("data-row")) for r in outlined) == sorted(set(ids))
    arrows = root.findall(f".//{SVG}line[@class='arrow']")
    assert sorted(int(a.get("data-row")) for a in arrows) == sorted(set(ids))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert root.find(f"{SVG}title").text == f"Embedding table: 6 tokens x {d_model} numbers"
    assert f"token IDs {ids}" in root.find(f"{SVG}desc").text
    assert f"Random numbers, seed {seed}." + (
        f" Row {padding} is the padding row: all zeros." if padding is not None else "") in shown


def test_figure_arrows_never_cross():
    """Each looked-up row gets one level arrow, so many tokens cannot tangle them."""
    text = " ".join(["refund my order is late <pad>"] * 5)
    root = parse_svg(svg_figure(make_table(6, 4), text))
    arrows = root.findall(f".//{SVG}line[@class='arrow']")
    assert len(arrows) == 6 and all(a.get("y1") == a.get("y2") for a in arrows)
    assert len({a.get("y1") for a in arrows}) == 6


def test_figure_outlines_stay_apart_when_every_row_is_looked_up():
    root = parse_svg(svg_figure(make_table(6, 4), "<pad> my is refund order late"))
    boxes = sorted((float(r.get("y")), float(r.get("height")))
                   for r in root.findall(f".//{SVG}rect[@class='lookup']"))
    assert len(boxes) == 6
    assert all(y + h < next_y for (y, h), (next_y, _) in zip(boxes, boxes[1:]))


def test_figure_text_stays_inside_it():
    """A 30-word text wraps under the title instead of running off the right edge."""
    text = " ".join(["my order is late refund"] * 6)
    figure = svg_figure(make_table(6, 4), text)
    root, width = parse_svg(figure), int(parse_svg(figure).get("width"))
    longest = max(len(t.text) for t in root.iter(f"{SVG}text") if t.get("x") == "20")
    assert longest * tokembed.CHAR_W + 2 * tokembed.MARGIN <= width


def test_two_figures_in_one_page_keep_their_own_ids():
    ids = [{e.get("id") for e in parse_svg(svg_figure(make_table(6, 4, seed), "my")).iter()
            if e.get("id")} for seed in (1, 2)]
    assert len(ids[0]) == 4 and not ids[0] & ids[1]


def test_readme_figure_is_what_the_code_draws():
    """The README shows .docs/figure.svg; it must be today's `tokembed.py --svg` output."""
    shown = (HERE / ".docs" / "figure.svg").read_text(encoding="utf-8")
    assert shown == svg_figure(make_table(len(VOCAB), D_MODEL), TEXT, seed=SEED)


def test_figure_escapes_pad():
    svg = svg_figure(make_table(6, 4), "<pad> my")
    assert "&lt;pad&gt;" in svg and "<pad>" not in svg
    texts = [t.text for t in parse_svg(svg).iter(f"{SVG}text")]
    assert "<pad>" in texts


@pytest.mark.parametrize("table, vocab, message", [
    (make_table(2, 4), VOCAB, "len(table) is 2 but len(vocab) is 6; "
                              "a table has one row per word"),
    ([[0.1, 0.2], [0.3]], ["a", "b"], "table must hold rows of one length, 1 or more; "
                                      "got row lengths [1, 2]"),
    ([[0.1, math.nan], [0.3, 0.4]], ["a", "b"], "row 0 holds nan; "
                                                "a figure needs finite numbers"),
    ([[0.1, 0.2], [-math.inf, 0.4]], ["a", "b"], "row 1 holds -inf; "
                                                 "a figure needs finite numbers"),
    (make_table(6, 65), VOCAB, "a figure shows at most 64 rows of 64 numbers, got 6 x 65; "
                               "print it with --table instead"),
    (make_table(2, 2), ["a", "b\x07"], "vocab[1] is 'b\\x07'; a word must be printable, "
                                      "with no spaces, since encode splits text at whitespace"),
])
def test_svg_figure_checks_its_input(table, vocab, message):
    with pytest.raises(ValueError) as caught:
        svg_figure(table, vocab[0], vocab)
    assert str(caught.value) == message


def test_figure_is_a_str_and_a_picture_in_jupyter():
    """IPython draws any object with _repr_svg_; everything else sees a plain str."""
    figure = svg_figure(make_table(6, 4), "my")
    assert isinstance(figure, str) and figure._repr_svg_() == str(figure)
    assert type(figure + "") is str and figure.startswith("<svg")


# --- the figure's file: whole or not at all, and what stood there is respected ---------

def listing(folder):
    return sorted(p.name for p in folder.iterdir())


def test_write_svg_makes_a_new_file_as_open_would(tmp_path):
    old = os.umask(0o077)
    try:
        write_svg(str(tmp_path / "private.svg"), "<svg/>")
    finally:
        os.umask(old)
    write_svg(str(tmp_path / "shared.svg"), "<svg/>")
    assert stat.S_IMODE((tmp_path / "private.svg").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "shared.svg").stat().st_mode) == 0o666 & ~old
    assert listing(tmp_path) == ["private.svg", "shared.svg"]


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o755])
def test_write_svg_keeps_a_files_mode(mode, tmp_path):
    path = tmp_path / "table.svg"
    path.write_text("old", encoding="utf-8")
    path.chmod(mode)
    write_svg(str(path), "<svg/>")
    assert (path.read_text(encoding="utf-8"), stat.S_IMODE(path.stat().st_mode)) == \
        ("<svg/>", mode)
    assert listing(tmp_path) == ["table.svg"]


def test_write_svg_writes_through_a_symlink(tmp_path):
    (tmp_path / "figures").mkdir()
    target = tmp_path / "figures" / "real.svg"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    write_svg(str(link), "<svg/>")
    assert link.is_symlink() and os.readlink(str(link)) == str(target)
    assert target.read_text(encoding="utf-8") == "<svg/>"


def test_write_svg_through_a_dangling_symlink_makes_its_target(tmp_path):
    link = tmp_path / "link.svg"
    link.symlink_to(tmp_path / "new.svg")
    write_svg(str(link), "<svg/>")
    assert link.is_symlink() and (tmp_path / "new.svg").read_text(encoding="utf-8") == "<svg/>"


def a_null_device(folder):
    """A device to write to: as root, a copy of /dev/null made here, so that a bug
    cannot replace the real one (once, as root, it became a 7,869-byte file); as
    anyone else, /dev/null itself, which they could not replace."""
    if os.geteuid() != 0:
        return os.devnull
    path = str(folder / "null")
    os.mknod(path, stat.S_IFCHR | 0o666, os.stat(os.devnull).st_rdev)
    return path


def test_write_svg_writes_a_device_in_place(tmp_path):
    device = a_null_device(tmp_path)
    write_svg(device, "<svg/>")
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert os.stat(device).st_rdev == os.stat(os.devnull).st_rdev


def test_write_svg_writes_a_pipe_that_someone_reads(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(str(fifo))
    reader = subprocess.Popen([sys.executable, "-c", f"print(open({str(fifo)!r}).read())"],
                              stdout=subprocess.PIPE)
    try:
        for _ in range(1200):  # until the reader, once started, has opened the pipe
            try:
                write_svg(str(fifo), "<svg/>")
                break
            except OSError:
                time.sleep(0.05)
    finally:
        out = reader.communicate(timeout=60)[0]
    assert out == b"<svg/>\n" and stat.S_ISFIFO(fifo.stat().st_mode)


def test_write_svg_refuses_a_pipe_nobody_reads_instead_of_hanging(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(str(fifo))
    with pytest.raises(OSError) as caught:
        write_svg(str(fifo), "<svg/>")
    assert tokembed._reason(caught.value) == "nothing is reading it"
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def as_a_user(code):
    """Run code in a child that may not override file modes: root drops to nobody.

    The child imports what it needs first, since root's Python is private to root.
    """
    drop = ("import errno, os, signal, stat, tokembed\n"
            "if os.geteuid() == 0:\n    os.setgid(65534)\n    os.setuid(65534)\n")
    return subprocess.run([sys.executable, "-c", drop + code], capture_output=True,
                          cwd=str(HERE), timeout=60)


def test_write_svg_refuses_a_file_the_user_may_not_write():
    """As the shell refuses `> file` for a 0444 file; renaming over it would have worked.

    Root may write anything, so a root run drops to user nobody in a child, in a
    folder that nobody may enter: tmp_path's parent is private to root.
    """
    folder = tempfile.mkdtemp()
    try:
        os.chmod(folder, 0o777)
        path = os.path.join(folder, "table.svg")
        with open(path, "w") as file:
            file.write("old")
        os.chmod(path, 0o444)
        done = as_a_user(f"try:\n    tokembed.write_svg({path!r}, '<svg/>')\n"
                         "except PermissionError:\n    print('refused')")
        assert (done.stdout, done.stderr) == (b"refused\n", b"")
        assert open(path).read() == "old" and os.listdir(folder) == ["table.svg"]
    finally:
        for name in os.listdir(folder):
            os.unlink(os.path.join(folder, name))
        os.rmdir(folder)


INTERRUPT = """
import os, signal, sys, tokembed
folder, how = sys.argv[1], getattr(signal, sys.argv[2])
def interrupt(frame, event, arg):  # the moment a file appears, send the signal
    if os.listdir(folder):
        sys.setprofile(None)
        os.kill(os.getpid(), how)
sys.setprofile(interrupt)
tokembed.write_svg(os.path.join(folder, "table.svg"), "<svg>" + "x" * 100000 + "</svg>")
"""


@pytest.mark.parametrize("how", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_an_interrupted_write_leaves_no_temporary_file(how, tmp_path):
    """Killed mid-write, the old code left a tmpXXXX.svg behind."""
    done = subprocess.run([sys.executable, "-c", INTERRUPT, str(tmp_path), how],
                          capture_output=True, cwd=HERE, timeout=60)
    assert done.returncode != 0  # the signal did arrive...
    assert listing(tmp_path) == ["table.svg"]  # ...once the file was whole and in place
    assert (tmp_path / "table.svg").read_text() == "<svg>" + "x" * 100000 + "</svg>"


@pytest.mark.parametrize("where, message", [
    ("missing/table.svg", "no such file or directory"),
    (".", "is a folder, not a file"),
    ("", "no such file or directory"),  # --svg "": an empty name is no file
])
def test_cli_svg_bad_paths(where, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # so that "" would leave a temporary file here
    path = str(tmp_path / where) if where else ""
    status, out, err = run_main(["--svg", path], capsys)
    expected = f"tokembed.py: error: cannot write the figure to {path!r}: {message}\n"
    assert (status, out, err) == (2, "", expected)
    assert listing(tmp_path) == []


def test_cli_svg_as_a_learner_sees_it(tmp_path):
    path = tmp_path / "table.svg"
    assert run_script("--svg", str(path)) == (0, LESSON_OUTPUT, b"")
    assert path.read_bytes().startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
    assert run_script("--svg", str(tmp_path / "no" / "x.svg"))[:2] == (2, b"")


# --- copying into a lesson ---------------------------------------------------------------

@pytest.mark.parametrize("name", tokembed.__all__)
def test_a_snippet_runs_alone(name, tmp_path):
    """Saved alone in an empty folder, it runs, defines the name and passes its doctests."""
    (tmp_path / "lesson.py").write_text(snippet(name), encoding="utf-8")
    runs = subprocess.run([sys.executable, "-I", "-c", "import runpy\n"
                           f"print({name!r} in runpy.run_path('lesson.py'))"],
                          capture_output=True, cwd=tmp_path, timeout=120)
    assert (runs.returncode, runs.stdout, runs.stderr) == (0, b"True\n", b"")
    tests = subprocess.run([sys.executable, "-I", "-m", "doctest", "-v", "lesson.py"],
                           capture_output=True, cwd=tmp_path, timeout=300)
    summary = tests.stdout.decode().splitlines()[-2:]
    assert tests.returncode == 0 and summary[-1] == "Test passed."
    assert int(summary[0].split()[0]) >= 1 and summary[0].endswith("passed and 0 failed.")


def defined(source):
    return [line.split("(")[0][4:] for line in source.splitlines() if line.startswith("def ")]


@pytest.mark.parametrize("names, functions", [
    (("dot",), ["dot"]),  # nothing that is not reached: no other function at all
    (("sgd_step",), ["sgd_step"]),
    (("VOCAB",), []),
    (("one_hot", "dot"), ["_int", "_whole", "_token_id", "one_hot", "dot"]),
    (("lookup",), ["_int", "_token_id", "_token_ids", "lookup"]),
])
def test_a_snippet_holds_only_what_its_names_reach(names, functions):
    assert defined(snippet(*names)) == functions


def test_a_snippet_defines_each_piece_once():
    source = snippet("search", "nearest", "cosine")
    assert len(defined(source)) == len(set(defined(source)))
    assert source.count("\nimport math\n") == 1


@pytest.mark.parametrize("names, message", [
    (("nope",), "cannot copy 'nope'"), (("main",), "cannot copy 'main'"),
    ((), "name something to copy"),
])
def test_snippet_names_what_can_be_copied(names, message):
    with pytest.raises(ValueError) as caught:
        snippet(*names)
    assert str(caught.value) == f"{message}; you can copy: {', '.join(tokembed.__all__)}"


def test_cli_copy_is_the_snippet(capsys):
    assert run_main(["--copy", "lookup", "one_hot"], capsys) == \
        (0, snippet("lookup", "one_hot"), "")


def test_readme_copy_example_is_real():
    command = 'python3 tokembed.py --copy lookup | grep -E "^(import|def) "'
    shown = README.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    source = snippet("lookup")
    assert shown == "".join(line + "\n" for line in source.splitlines()
                            if line.startswith(("import ", "def ")))
    assert f"The whole snippet is {len(source.splitlines())} lines" in README


# --- the command line --------------------------------------------------------------------

@pytest.mark.parametrize("argv, expected", [
    ([], LESSON_OUTPUT.decode()),
    (["refund my order", "--seed", "42", "--d-model", "4"], LESSON_OUTPUT.decode()),
    (["refund", "my", "order"], LESSON_OUTPUT.decode()),  # quotes are optional
    (["refund", "--seed", "42", "my", "order"], LESSON_OUTPUT.decode()),  # flags in between
    (["my order is late"],
     "token ids: [1, 4, 2, 5]\n"
     "my      -> row 1: [0.47, 0.35, 0.78, -0.83]\n"
     "order   -> row 4: [-0.56, 0.18, 0.62, -0.99]\n"
     "is      -> row 2: [-0.16, -0.94, -0.56, 0.01]\n"
     "late    -> row 5: [0.61, 0.4, -0.32, -0.69]\n"
     "table shape: 6 x 4\n"),
    (["late", "--seed", "7", "--d-model", "2"],
     f"token ids: [5]\nlate    -> row 5: {lesson_table(6, 2, 7)[5]}\ntable shape: 6 x 2\n"),
    ([""], "token ids: []\ntable shape: 6 x 4\n"),
])
def test_cli_prints_the_lookup(argv, expected, capsys):
    assert run_main(argv, capsys) == (0, expected, "")


CLI_ERRORS = {  # (argv, the one line on stderr)
    "unknown word": (["Refund my order"], "unknown token 'Refund' at position 0 "
                     "(did you mean 'refund'?); vocabulary: <pad>, my, is, refund, order, late"),
    "d-model 0": (["--d-model", "0"], "argument --d-model: must be 1 to 65,536, got 0"),
    "d-model huge": (["--d-model", "10000000000000"],
                     "argument --d-model: must be 1 to 65,536, got 10000000000000"),
    "d-model 4.5": (["--d-model", "4.5"], "argument --d-model: invalid int value: '4.5'"),
    "seed abc": (["--seed", "abc"], "argument --seed: invalid int value: 'abc'"),
    "seed -5": (["--seed", "-5"], "seed must be at least 0, got -5 (random.Random(-5) draws "
                "what random.Random(5) draws, so a negative seed would only repeat one)"),
    "train seed -5": (["--train", "--seed", "-5"], "seed must be at least 0, got -5 "
                      "(random.Random(-5) draws what random.Random(5) draws, so a negative "
                      "seed would only repeat one)"),
    "unknown flag": (["--colour"], "unrecognized arguments: --colour"),
    "params 1": (["--params", "1"], "argument --params: expected two whole numbers "
                 "from 1 to 1,000,000,000,000 (VOCAB_SIZE D_MODEL), got 1"),
    "params 0": (["--params", "0", "4"], "argument --params: expected two whole numbers "
                 "from 1 to 1,000,000,000,000 (VOCAB_SIZE D_MODEL), got 0 4"),
    "params 1e5": (["--params", "1e5", "768"], "argument --params: expected two whole "
                   "numbers from 1 to 1,000,000,000,000 (VOCAB_SIZE D_MODEL), got 1e5 768"),
    "params too big": (["--params", "1000000000001", "4"], "argument --params: expected two "
                       "whole numbers from 1 to 1,000,000,000,000 (VOCAB_SIZE D_MODEL), "
                       "got 1000000000001 4"),
    "params twice": (["--params", "6", "4", "--params"], "argument --params: given twice"),
    "seed twice": (["--seed", "1", "--seed", "2"], "argument --seed: given twice"),
    "params seed": (["--params", "6", "4", "--seed", "1"], "--params does not take --seed"),
    "train words": (["--train", "refund"], "--train does not take WORDS"),
    "train svg": (["--train", "--svg", "x.svg"], "--train does not take --svg"),
    "train many": (["--train", "my", "--svg", "x.svg", "--d-model", "3", "--seed", "1"],
                   "--train does not take WORDS, --d-model, --svg"),
    "learn svg": (["--learn", "--svg", "x.svg"], "--learn does not take --svg"),
    "two views": (["--table", "--one-hot"], "argument --one-hot: not allowed with "
                                            "argument --table"),
    "padding 6": (["--padding-idx", "6"], "padding_idx 6 is out of range; valid rows are "
                                          "-6 to 5 (-1 is the last, as in PyTorch)"),
    "one-hot word": (["--one-hot", "my Order"], "unknown token 'Order' at position 1 "
                     "(did you mean 'order'?); vocabulary: <pad>, my, is, refund, order, late"),
    "learn nothing": (["--learn", ""], "--learn needs at least one word to look up"),
    "search word": (["--search", "refund", "my", "shoe"], "unknown token 'shoe' at position "
                    f"2; vocabulary: {', '.join(trained(SEED, 0)[0])}"),
    "search too long": (["--search"] + ["refund"] * 201, "--search takes 1 to 200 "
                        "words, got 201: attention compares every pair of them"),
    "copy nothing": (["--copy"], "name something to copy; you can copy: "
                                 + ", ".join(tokembed.__all__)),
    "dash and words": (["-", "my"], "'-' reads the words from standard input, "
                                    "so give it alone"),
}


@pytest.mark.parametrize("argv, stderr", CLI_ERRORS.values(), ids=CLI_ERRORS.keys())
def test_cli_errors_in_process(argv, stderr, capsys):
    assert run_main(argv, capsys) == (2, "", f"tokembed.py: error: {stderr}\n")


@pytest.mark.parametrize("name", ["unknown word", "d-model huge", "seed twice", "train words"])
def test_cli_errors_as_a_learner_sees_them(name):
    argv, stderr = CLI_ERRORS[name]
    assert run_script(*argv) == (2, b"", f"tokembed.py: error: {stderr}\n".encode())


def test_main_takes_a_list_not_a_string():
    with pytest.raises(TypeError, match=r"^argv must be a list of arguments, not str: "
                                        r"'my order' \(split it first\)$"):
        main("my order")


def test_cli_checks_survive_python_O():
    """Input checks are real code, not asserts, so -O cannot strip them."""
    done = subprocess.run([sys.executable, "-O", "tokembed.py", "--d-model", "0"],
                          capture_output=True, cwd=HERE, timeout=60)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == b"tokembed.py: error: argument --d-model: must be 1 to 65,536, got 0\n"


def test_cli_into_a_closed_pipe_stops_quietly():
    """`python tokembed.py --params | head -0`: no traceback, exit status 1."""
    child = subprocess.Popen([sys.executable, "tokembed.py", "--params"], cwd=HERE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # the reader is gone before the first line is written
    assert (child.stderr.read(), child.wait(timeout=60)) == (b"", 1)
    child.stderr.close()


@pytest.mark.parametrize("argv", [[], ["--help"], ["--train"]])
def test_cli_into_a_full_disk_says_so(argv):
    with open("/dev/full", "wb") as full:
        assert run_script(*argv, stdout=full, stderr=subprocess.PIPE) == (
            2, None, b"tokembed.py: error: cannot write the output: no space left on device\n")


def test_cli_with_standard_output_closed_says_so():
    status, _, err = run_script(stdout=None, preexec_fn=lambda: os.close(1),
                                stderr=subprocess.PIPE)
    assert (status, err) == (2, b"tokembed.py: error: standard output is closed, "
                                b"so there is nowhere to print\n")


def test_ctrl_c_stops_quietly_with_status_130():
    """Ctrl-C while reading standard input: no traceback, the shell's status for SIGINT."""
    code = ("import sys, tokembed\nclass Keys:\n    def read(self):\n"
            "        raise KeyboardInterrupt\nsys.stdin = Keys()\n"
            "sys.exit(tokembed.main(['-']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=HERE,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, b"", b"")


def test_main_returns_instead_of_exiting(capsys):
    assert run_main(["--bogus"], capsys) == (
        2, "", "tokembed.py: error: unrecognized arguments: --bogus\n")
    status, out, err = run_main(["--help"], capsys)
    assert (status, err) == (0, "") and out.startswith("usage: tokembed.py [options] [VIEW]")


@pytest.mark.parametrize("words, expected", [
    ("my order is late\n", "token ids: [1, 4, 2, 5]"),
    ("refund\n\nmy   order", "token ids: [3, 1, 4]"),
    ("", "token ids: []"),
])
def test_cli_reads_words_from_standard_input(words, expected):
    status, out, err = run_script("-", input=words.encode())
    assert (status, err) == (0, b"") and out.decode().splitlines()[0] == expected


def test_cli_reads_a_million_words_from_standard_input():
    """Far past any command line's length limit, and in time proportional to it."""
    status, out, err = run_script("-", "--table", input=b"my order is late refund " * 200_000)
    lines = out.decode().splitlines()
    ids = " ".join(lines[:-8]).split("[")[1].split("]")[0].split(", ")
    assert (status, err, len(ids), lines[-1]) == (0, b"", 1_000_000, "table shape: 6 x 4")
    assert ids[:6] == ["1", "4", "2", "5", "3", "1"]
    assert lines[-7].endswith("<pad>   [ 0.28, -0.95, -0.45, -0.55]")
    assert [line.split("<- ")[1] for line in lines[-6:-1]] == [
        f"200,000 positions: {k}, {k + 5}, {k + 10}, ..." for k in (0, 2, 4, 1, 3)]


def test_cli_without_a_dash_never_reads_standard_input():
    assert run_script(input=b"late late late") == (0, LESSON_OUTPUT, b"")


def test_cli_help_is_the_same_on_every_python():
    """argparse wrote 'optional arguments:' before 3.10; ours has its own group."""
    status, out, _ = run_script("--help", env={**os.environ, "COLUMNS": "80"})
    text = out.decode()
    assert status == 0 and "\noptions:\n" in text and "optional arguments" not in text


# --- the module and its docs -------------------------------------------------------------

def test_import_runs_nothing_heavy():
    code = ("import sys, tokembed; print(sorted({'argparse', 'textwrap', 'ast', 'inspect'} "
            "& set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          cwd=HERE, timeout=60)
    assert (done.stdout, done.stderr) == (b"[]\n", b"")


def test_the_lessons_run_imports_nothing_heavy():
    code = ("import runpy, sys\nsys.argv = ['tokembed.py']\ntry:\n"
            "    runpy.run_path('tokembed.py', run_name='__main__')\nexcept SystemExit:\n"
            "    pass\nprint(sorted({'argparse', 'textwrap'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True,
                          cwd=HERE, timeout=60)
    assert done.stdout == LESSON_OUTPUT + b"[]\n"


def test_all_names_exist():
    assert all(hasattr(tokembed, name) for name in tokembed.__all__)
    assert set(tokembed.__all__) >= {"VOCAB", "D_MODEL", "SEED", "make_table",
                                     "encode", "decode", "lookup"}


def test_module_doctests():
    failed, tried = doctest.testmod(tokembed)
    assert tried > 0 and failed == 0


def test_every_public_function_has_a_doctest():
    finder = doctest.DocTestFinder()
    missing = [name for name in tokembed.__all__ if callable(getattr(tokembed, name))
               and not any(t.examples for t in finder.find(getattr(tokembed, name), name))]
    assert missing == []


READ_ME_VIEWS = [[], ["--one-hot"], ["--params"], ["--train"], ["--table", "my order order"],
                 ["--learn", "my", "order", "order"], ["--context"], ["--search"]]


@pytest.mark.parametrize("argv", READ_ME_VIEWS)
def test_readme_shows_real_output(argv, capsys):
    status, out, _ = run_main(argv, capsys)
    assert status == 0 and f"```text\n{out}```" in README


def test_readme_shows_a_real_error(capsys):
    _, _, err = run_main(["Refund my order"], capsys)
    assert f'```text\n$ python3 tokembed.py "Refund my order"\n{err}```' in README


def test_ci_runs_the_readmes_test_command():
    command = [line for line in README.splitlines() if line.startswith("python3 -m venv")]
    run = (HERE / ".ci" / "run").read_text(encoding="utf-8")
    assert len(command) == 1 and f'\ntest_command="{command[0]}"\n' in run


def test_readme_doctests():
    failed, tried = doctest.testfile(str(HERE / "README.md"), module_relative=False)
    assert tried > 0 and failed == 0
