"""Tests for tokembed: the lesson's output byte for byte, then every step.

The golden bytes below are copied from the lesson's printed output; every
other expected value is either from the lesson or derived from the lesson's
own recipe (``lesson_table``), never from tokembed itself.
"""

import doctest
import pathlib
import random
import subprocess
import sys

import pytest

import tokembed
from tokembed import VOCAB, D_MODEL, SEED, make_table, encode, decode, lookup, main

HERE = pathlib.Path(__file__).resolve().parent
LESSON_OUTPUT = (
    b"token ids: [3, 1, 4]\n"
    b"refund  -> row 3: [-0.95, -0.6, 0.3, 0.09]\n"
    b"my      -> row 1: [0.47, 0.35, 0.78, -0.83]\n"
    b"order   -> row 4: [-0.56, 0.18, 0.62, -0.99]\n"
    b"table shape: 6 x 4\n"
)


def lesson_table(n_rows, d_model, seed):
    """The lesson's comprehension, verbatim apart from the sizes."""
    rng = random.Random(seed)
    return [[round(rng.uniform(-1, 1), 2) for _ in range(d_model)] for _ in range(n_rows)]


def run_script(*args):
    """Run tokembed.py as a learner would; return (status, stdout, stderr) as bytes."""
    done = subprocess.run([sys.executable, str(HERE / "tokembed.py"), *args],
                          capture_output=True, cwd=HERE, timeout=60)
    return done.returncode, done.stdout, done.stderr


def run_main(argv, capsys):
    """Call main() in-process; return (status, stdout, stderr) as text."""
    try:
        status = main(argv)
    except SystemExit as leaving:  # argparse leaves through sys.exit
        status = leaving.code
    out, err = capsys.readouterr()
    return status, out, err


# --- the lesson, byte for byte -------------------------------------------------

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
    (6, 4, 42), (6, 4, 0), (1, 1, 42), (6, 8, 7), (100, 3, 123), (3, 300, -5), (2, 2, 2**70),
])
def test_make_table_follows_the_lessons_recipe(n_rows, d_model, seed):
    assert make_table(n_rows, d_model, seed) == lesson_table(n_rows, d_model, seed)


def test_make_table_leaves_global_random_alone():
    random.seed(1)
    expected = [random.random() for _ in range(3)]
    random.seed(1)
    make_table(6, 4)
    assert [random.random() for _ in range(3)] == expected


# --- encode, decode, lookup ----------------------------------------------------

@pytest.mark.parametrize("text, ids", [
    ("refund my order", [3, 1, 4]),
    ("my order is late", [1, 4, 2, 5]),
    ("  refund\tmy\norder  ", [3, 1, 4]),  # any whitespace splits
    ("<pad> <pad>", [0, 0]),
    ("", []),
])
def test_encode(text, ids):
    assert encode(text) == ids


@pytest.mark.parametrize("text", ["refund my order", "my order is late", "late", "<pad> is is", ""])
def test_decode_undoes_encode(text):
    assert decode(encode(text)) == text


def test_encode_and_decode_take_any_vocabulary():
    vocab = ["a", "b", "c"]
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


def test_encode_wants_text():
    with pytest.raises(TypeError, match="^text must be a str, not list$"):
        encode(["refund"])


def test_lookup_returns_copies():
    table = make_table(6, 4)
    before = [list(row) for row in table]
    rows = lookup(table, [3, 3])
    rows[0][0] = 99.0
    assert table == before
    assert rows[1] == before[3]


BAD_IDS = [  # (ids, error, message) for the lesson's 6-row table
    ([-1], IndexError, "token ID -1 at position 0 is out of range; valid IDs are 0 to 5"),
    ([3, 6], IndexError, "token ID 6 at position 1 is out of range; valid IDs are 0 to 5"),
    ([10**20], IndexError, f"token ID {10**20} at position 0 is out of range; valid IDs are 0 to 5"),
    ([True], TypeError, "token ID at position 0 must be an int, not bool: True"),
    ([1.0], TypeError, "token ID at position 0 must be an int, not float: 1.0"),
    (["3"], TypeError, "token ID at position 0 must be an int, not str: '3'"),
    ([None], TypeError, "token ID at position 0 must be an int, not NoneType: None"),
    (3, TypeError, "ids must be a list of token IDs, not int: 3 (write [3])"),
    ("my", TypeError, "ids must be a list of token IDs, not str: 'my' (encode the text first)"),
]


@pytest.mark.parametrize("ids, error, message", BAD_IDS)
def test_lookup_rejects_bad_ids(ids, error, message):
    with pytest.raises(error) as caught:
        lookup(make_table(6, 4), ids)
    assert str(caught.value) == message


@pytest.mark.parametrize("ids, error, message", BAD_IDS)
def test_decode_rejects_bad_ids_like_lookup(ids, error, message):
    with pytest.raises(error) as caught:
        decode(ids)
    assert str(caught.value) == message


@pytest.mark.parametrize("args, error, message", [
    ((0, 4), ValueError, "n_rows must be at least 1, got 0"),
    ((6, -2), ValueError, "d_model must be at least 1, got -2"),
    ((6, 4.0), TypeError, "d_model must be an int, not float: 4.0"),
    (("6", 4), TypeError, "n_rows must be an int, not str: '6'"),
    ((6, 4, None), TypeError, "seed must be an int, not NoneType: None"),
    ((6, 4, 4.2), TypeError, "seed must be an int, not float: 4.2"),
])
def test_make_table_rejects_bad_sizes(args, error, message):
    with pytest.raises(error) as caught:
        make_table(*args)
    assert str(caught.value) == message


# --- command line ----------------------------------------------------------------

@pytest.mark.parametrize("argv, expected", [
    ([], LESSON_OUTPUT.decode()),
    (["refund my order", "--seed", "42", "--d-model", "4"], LESSON_OUTPUT.decode()),
    (["refund", "my", "order"], LESSON_OUTPUT.decode()),  # quotes are optional
    (["my order is late"],
     "token ids: [1, 4, 2, 5]\n"
     "my      -> row 1: [0.47, 0.35, 0.78, -0.83]\n"
     "order   -> row 4: [-0.56, 0.18, 0.62, -0.99]\n"
     "is      -> row 2: [-0.16, -0.94, -0.56, 0.01]\n"
     "late    -> row 5: [0.61, 0.4, -0.32, -0.69]\n"
     "table shape: 6 x 4\n"),
    (["late", "--seed", "7", "--d-model", "2"],
     f"token ids: [5]\nlate    -> row 5: {lesson_table(6, 2, 7)[5]}\ntable shape: 6 x 2\n"),
])
def test_cli_prints_the_lookup(argv, expected, capsys):
    assert run_main(argv, capsys) == (0, expected, "")


def test_cli_rows_are_context_free(capsys):
    """'order' is row 4 whatever surrounds it: input embeddings ignore context."""
    _, lesson, _ = run_main(["refund my order"], capsys)
    _, other, _ = run_main(["my order is late"], capsys)
    order_line = "order   -> row 4: [-0.56, 0.18, 0.62, -0.99]\n"
    assert order_line in lesson and order_line in other


CLI_ERRORS = [  # (argv, the one line on stderr)
    (["Refund my order"], "tokembed.py: error: unknown token 'Refund' at position 0 "
     "(did you mean 'refund'?); vocabulary: <pad>, my, is, refund, order, late\n"),
    (["--d-model", "0"], "tokembed.py: error: argument --d-model: must be 1 to 65,536, got 0\n"),
    (["--d-model", "-4"], "tokembed.py: error: argument --d-model: must be 1 to 65,536, got -4\n"),
    (["--d-model", "4.5"], "tokembed.py: error: argument --d-model: invalid int value: '4.5'\n"),
    (["--d-model", "10000000000000"],
     "tokembed.py: error: argument --d-model: must be 1 to 65,536, got 10000000000000\n"),
    (["--seed", "abc"], "tokembed.py: error: argument --seed: invalid int value: 'abc'\n"),
    (["--seed", "1.5"], "tokembed.py: error: argument --seed: invalid int value: '1.5'\n"),
    (["--colour"], "tokembed.py: error: unrecognized arguments: --colour\n"),
]


@pytest.mark.parametrize("argv, stderr", CLI_ERRORS)
def test_cli_errors_in_process(argv, stderr, capsys):
    assert run_main(argv, capsys) == (2, "", stderr)


@pytest.mark.parametrize("argv, stderr", CLI_ERRORS[:2] + CLI_ERRORS[4:5])
def test_cli_errors_as_a_learner_sees_them(argv, stderr):
    assert run_script(*argv) == (2, b"", stderr.encode())


def test_cli_help(capsys):
    status, out, err = run_main(["--help"], capsys)
    assert (status, err) == (0, "")
    assert out.startswith("usage: tokembed.py [-h]") and "--d-model" in out


# --- the module itself -------------------------------------------------------------

def test_import_runs_nothing():
    code = "import sys, tokembed; print(sorted({'argparse'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          cwd=HERE, timeout=60)
    assert (done.stdout, done.stderr) == (b"[]\n", b"")


def test_all_names_exist():
    assert all(hasattr(tokembed, name) for name in tokembed.__all__)
    assert set(tokembed.__all__) >= {"VOCAB", "D_MODEL", "SEED", "make_table",
                                     "encode", "decode", "lookup", "main"}


def test_module_doctests():
    failed, tried = doctest.testmod(tokembed)
    assert tried > 0 and failed == 0


def test_readme_doctests():
    failed, tried = doctest.testfile(str(HERE / "README.md"), module_relative=False)
    assert tried > 0 and failed == 0
