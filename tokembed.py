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

The file, top to bottom: facts from outside, each with its source; the lesson
(make_table, encode, decode, lookup); then a section for each of its claims: a
real tokenizer (split_words ... bpe_decode), GPT-2's own (gpt2_bytes, gpt2_ids,
read_merges), 100,000+ tokens (read_ranks, rank_encode), one-hot x table, 524
million numbers, learned like weights, used alike, alike (dot ... nearest),
context (softmax, attend), one vector a text, positions (embed ... rope),
batches (pad_batch ... masked_attend), the table read again; the input checks,
CHECKERS. Below the line, the program: its limits, text layout, the views, the
figure, copying into a lesson, the command line, the edges and the one network
door.

A public function's check lines come first, calls to CHECKERS; the idea after
them calls none. ``--copy NAME`` prints the idea alone, ``--checked`` the
function with its checks. ``python3 tokembed.py`` prints the lesson, ``--help``
the rest.
"""

__version__ = "1.3.0"
__all__ = ["VOCAB", "D_MODEL", "SEED", "TEXT", "make_table", "encode",
           "decode", "lookup", "lesson", "one_hot", "vecmat", "REAL_MODELS",
           "param_count", "lookup_backward", "sgd_step", "CORPUS", "dot",
           "cosine", "context_pairs", "sigmoid", "sgns_step",
           "train_embeddings", "nearest", "softmax", "attend",
           "sentence_vector", "search", "N_POSITIONS", "embed", "sinusoidal",
           "rotation", "rotate", "rope", "pad_batch", "position_ids",
           "masked_attend", "logits", "colour", "svg_figure", "write_svg",
           "snippet", "exercise", "split_words", "merge", "train_bpe",
           "token_bytes", "bpe_encode", "bpe_decode", "BPE_MERGES",
           "gpt2_bytes", "gpt2_ids", "read_merges", "read_ranks",
           "GPT2", "CL100K", "O200K", "LLAMA3", "rank_encode", "LANGUAGES",
           "read_sentencepiece", "sp_encode", "SP_FLAGS", "head_gradient"]

import collections
import math
import os
import random
import sys
import unicodedata

VOCAB = ["<pad>", "my", "is", "refund", "order", "late"]
D_MODEL = 4
SEED = 42
TEXT = "refund my order"

# --- facts from outside, each with its source --------------------------------

# Input-embedding sizes of well-known models: (name, vocabulary size, d_model),
# each from the model's config.json on the Hugging Face Hub: vocab_size, and
# n_embd (GPT-2) or hidden_size (the others).
REAL_MODELS = [
    ("GPT-2 small", 50_257, 768),     # openai-community/gpt2
    ("BERT-base", 30_522, 768),       # google-bert/bert-base-uncased
    ("Llama 3 8B", 128_256, 4_096),   # meta-llama/Meta-Llama-3-8B
    ("Llama 3.2 1B", 128_256, 2_048),  # meta-llama/Llama-3.2-1B
]
# Whether a model's output layer reads its embedding table again
# (tie_word_embeddings in its config.json; True where the config leaves it to
# the library's default)
TIED = {"GPT-2 small": True, "BERT-base": True, "Llama 3 8B": False,
        "Llama 3.2 1B": True}
# all of GPT-2 small, as transformers issue #14960 counts it
GPT2_TIED_TOTAL = 124_439_808
# Real models' position settings, from each config.json on the Hugging Face Hub
GPT2_POSITIONS = 1_024  # openai-community/gpt2: n_positions, wpe's rows
LLAMA3_ROPE_BASE = 500_000  # meta-llama/Meta-Llama-3-8B: rope_theta


# --- the lesson, one step per function ---------------------------------------

def make_table(n_rows, d_model, seed=SEED, padding_idx=None):
    """Return an n_rows x d_model table of random numbers in [-1, 1].

    >>> make_table(2, 3, seed=7)
    [[-0.35, -0.7, 0.3], [-0.86, 0.07, -0.27]]
    """
    n_rows = _whole("n_rows", n_rows, 1)
    d_model = _whole("d_model", d_model, 1)
    seed = _whole("seed", seed, 0, hint=NEGATIVE_SEED)
    padding_idx = padding_idx if padding_idx is None else _whole(
        "padding_idx", padding_idx, -n_rows, n_rows - 1)
    rng = random.Random(seed)  # our own generator: the global one is untouched
    table = [[round(rng.uniform(-1, 1), 2) for _ in range(d_model)]
             for _ in range(n_rows)]
    if padding_idx is not None:  # zeroed once all are drawn, as in PyTorch
        table[padding_idx] = [0.0] * d_model  # -1 is the last, as in Python
    return table


def encode(text, vocab=VOCAB):
    """Turn text into token IDs: each word's position in the vocabulary.

    >>> encode("b a b", ["a", "b"])
    [1, 0, 1]
    """
    vocab = _vocab(vocab)
    text = _text("text", text, vocab)
    return [vocab.index(word) for word in text.split()]  # the lesson's line


def decode(ids, vocab=VOCAB):
    """Turn token IDs back into text.

    >>> decode([1, 0, 1], ["a", "b"])
    'b a b'
    """
    vocab = _vocab(vocab)
    ids = _ids(ids, len(vocab))
    return " ".join(vocab[i] for i in ids)


def lookup(table, ids):
    """Return a copy of the table's row for each token ID.

    >>> lookup([[0.1, 0.2], [0.3, 0.4]], [1, 1])
    [[0.3, 0.4], [0.3, 0.4]]
    """
    if not isinstance(table, (list, tuple)):  # rows are read by their IDs
        raise TypeError(f"table must be a list of rows, not {_shown(table)}")
    ids = _ids(ids, len(table), rows=table)
    if min(ids, default=0) < 0:  # table[-1] would quietly read the last row
        raise IndexError(f"token ID {min(ids)} is negative; IDs count from 0")
    return [list(table[i]) for i in ids]  # ID 3 is row index 3, the 4th row


def lesson(text=TEXT, vocab=VOCAB, d_model=D_MODEL, seed=SEED):
    """Print the text's token IDs, each token's row of a table, its shape.

    >>> lesson("b a", ["a", "b"], 2, seed=7)
    token ids: [1, 0]
    b       -> row 1: [0.3, -0.86]
    a       -> row 0: [-0.35, -0.7]
    table shape: 2 x 2
    """
    table = make_table(len(vocab), d_model, seed)
    ids = encode(text, vocab)
    print("token ids:", ids)
    for word, i, row in zip(text.split(), ids, lookup(table, ids)):
        print(f"{word:7} -> row {i}: {row}")
    print("table shape:", len(table), "x", d_model)


# --- claim: the first arrow, made real: byte-level BPE, as in GPT-2 ----------

# GPT-2's split before it merges, as tiktoken_ext/openai_public.py writes it
GPT2 = (r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$"
        r"|\s+(?!\S)|\s")
BPE_MERGES = 100  # the lesson's size: GPT-2 learned 50,000
WHITE_SPACE = frozenset(  # \s, as the regex module has it: PropList.txt's
    "\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
    + "".join(map(chr, range(0x2000, 0x200B))))
CLASSES = {  # re has no \p{L}: a character is its class's letter, \p{..} these
    "Lu": "ASDMTLVRE", "Lt": "B", "Ll": "asdmtlvre\u017f", "Lm": "c",
    "Lo": "o", "L": "AaBcoSDMTLVREsdmtlvre\u017f", "M": "k", "N": "0"}


def split_words(text, pattern=GPT2):
    """Cut text into words with their space, as GPT-2 (or pattern) does.

    >>> split_words("I'll pay 42  dollars!")
    ['I', "'ll", ' pay', ' 42', ' ', ' dollars', '!']
    """
    text, pattern = _text("text", text, None), _pattern(pattern)
    classes = text.translate({ord(c): _class_letter(c) for c in set(text)})
    return [text[m.start():m.end()]
            for m in _over_classes(pattern).finditer(classes)]


def _class_letter(char):
    r"""Write char as its class's letter in CLASSES; \t a space, # the rest."""
    if char in " \r\n'/sdmtlvreSDMTLVRE\u017f":  # ſ: (?i) reads it as s
        return char
    category = unicodedata.category(char)
    return "\t" if char in WHITE_SPACE else (
        CLASSES.get(category) or CLASSES.get(category[0], "#"))[0]


def _over_classes(pattern):
    r"""Compile pattern for class letters; ++ as + (alike here; re: 3.11+)."""
    import re  # here, not at the top: the lesson's view needs no pattern
    def letters(found):  # in a [class] as they are; on their own, in one
        inner = re.sub(r"\\p\{(\w+)\}", lambda p: CLASSES[p[1]], found[0])
        return inner if found[0].startswith("[") else f"[{inner}]"
    out = re.sub(r"\[(?:\\.|[^]])*]|\\p\{\w+\}", letters, pattern)
    return re.compile(re.sub(r"(?<=[+?*}])\+", "", out).replace("$", r"\Z"))


def merge(ids, pair, new_id):
    """Put new_id for each pair in ids, left to right and never overlapping.

    >>> merge([97, 97, 97], (97, 97), 256)
    [256, 97]
    """
    ids, pair = _ids(ids, None), _ids(pair, None, "pair")
    if len(pair) != 2:
        raise ValueError(f"pair must hold two IDs, got {len(pair)}")
    new_id = _whole("new_id", new_id, 0)
    out, i = [], 0
    while i < len(ids):
        is_pair = tuple(ids[i:i + 2]) == tuple(pair)  # a list from JSON too
        out.append(new_id if is_pair else ids[i])
        i += 2 if is_pair else 1  # a pair made is used up: it never overlaps
    return out


def train_bpe(corpus, n_merges):
    """Learn merges of the pair seen most, until none is left: ID 256 + i.

    >>> train_bpe(["aaabdaaabac"], 3)  # aa, then ab, then the two
    [(97, 97), (97, 98), (256, 257)]
    """
    corpus = _texts("corpus", corpus, None)
    n_merges = _whole("n_merges", n_merges, 0)
    pieces = collections.Counter(  # each piece as its bytes: how often seen
        tuple(piece.encode("utf-8")) for text in corpus
        for piece in split_words(text))
    merges = []
    while len(merges) < n_merges:
        counts = {}  # each pair of neighbours in all pieces, never across two
        for ids, n in pieces.items():
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + n
        if not counts:  # each piece is one token: no pair is left to merge
            break
        pair = min(counts, key=lambda p: (-counts[p], p))  # a tie: the least
        new_id = 256 + len(merges)
        pieces = {tuple(merge(ids, pair, new_id)) if pair[0] in ids else ids:
                  n for ids, n in pieces.items()}  # without it: as it was
        merges.append(pair)
    return merges


def token_bytes(merges):
    """List each token ID's bytes: the 256 single bytes, then each merge's.

    >>> token_bytes([(97, 97), (256, 98)])[256:]
    [b'aa', b'aab']
    """
    merges = _merges(merges)
    vocab = [bytes([i]) for i in range(256)]
    for a, b in merges:
        vocab.append(vocab[a] + vocab[b])
    return vocab


def bpe_encode(text, merges):
    """Turn text into token IDs: each piece's bytes, merged as training did.

    >>> bpe_encode("aaab", [(97, 97), (256, 97)])
    [257, 98]
    """
    text, merges = _utf8("text", text), _merges(merges)
    made = {tuple(pair): 256 + i for i, pair in enumerate(merges)}  # its ID
    pieces, encoded = split_words(text), {}
    for piece in dict.fromkeys(pieces):  # a piece always encodes alike: once
        tokens = list(piece.encode("utf-8"))
        while pairs := [p for p in zip(tokens, tokens[1:]) if p in made]:
            pair = min(pairs, key=made.get)  # the one training merged first
            tokens = merge(tokens, pair, made[pair])
        encoded[piece] = tokens
    return [i for piece in pieces for i in encoded[piece]]


def bpe_decode(ids, vocab):
    """Turn token IDs back into text: their bytes, joined, read as UTF-8.

    >>> bpe_decode([104, 105, 256], [bytes([i]) for i in range(256)] + [b"!"])
    'hi!'
    """
    vocab = _byte_vocab(vocab)
    ids = _ids(ids, len(vocab))
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


# --- claim: the tokenizer is GPT-2's: given its merges, its very IDs ---------

def gpt2_bytes():
    """Map each byte to the letter GPT-2 writes it as, in GPT-2's ID order.

    >>> names = gpt2_bytes()
    >>> names[ord(" ")], names[ord("\\n")], list(names).index(ord(" "))
    ('Ġ', 'Ċ', 220)
    """
    # bytes_to_unicode in openai/gpt-2's src/encoder.py: these print as
    # themselves, and come first; the 68 others take letters from U+0100 on
    shown = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    hidden = [b for b in range(256) if b not in shown]
    return {**{b: chr(b) for b in shown},
            **{b: chr(0x100 + k) for k, b in enumerate(hidden)}}


def gpt2_ids(ids):
    """Number byte tokens as GPT-2 does, by gpt2_bytes' order; merges stay.

    >>> gpt2_ids([33, 32, 256])  # "!" is GPT-2's ID 0, the space 220
    [0, 220, 256]
    """
    ids = _ids(ids, None)
    order = {b: k for k, b in enumerate(gpt2_bytes())}  # byte: GPT-2's ID
    return [order[i] if i < 256 else i for i in ids]


def read_merges(path):
    """Read GPT-2's merges (vocab.bpe or merges.txt: a path, or its lines).

    >>> read_merges(["#version: 0.2", "Ġ t", "Ġt h"])  # " t", then " th"
    ((32, 116), (256, 104))
    """
    path = _merges_file(path)
    if not isinstance(path, list):  # a path: its lines
        with open(path, encoding="utf-8-sig") as file:  # a BOM is no letter
            path = file.read().splitlines()
    made = {letter: b for b, letter in gpt2_bytes().items()}  # a token: its ID
    merges = []
    for line in path:
        if line and not line.startswith("#version"):  # as GPT-2's encoder.py
            a, b = line.split()  # two tokens, each made before it
            made[a + b] = 256 + len(merges)  # merge k makes ID 256 + k
            merges.append((made[a], made[b]))
    return tuple(merges)  # a tuple: bpe_encode checks it once, not each call


# --- claim: real vocabularies hold 100,000+ tokens: a rank is a merge's order
# A tiktoken file ranks tokens; merge k makes token 256 + k: merges rank too.

def read_ranks(path):
    """Read a tiktoken file (a path, or its lines): {a token's bytes: rank}.

    >>> read_ranks(["YQ== 0", "Yg== 1", "YWI= 2"])  # a, b, then ab
    {b'a': 0, b'b': 1, b'ab': 2}
    """
    path = _ranks_file(path)
    import base64  # here, not at the top: the lesson's view reads no file
    if not isinstance(path, list):  # a path: its lines
        with open(path, encoding="utf-8-sig") as file:  # a BOM is no letter
            path = file.read().splitlines()
    pairs = (line.split() for line in path if line)  # none from a blank line
    return {base64.b64decode(token): int(rank) for token, rank in pairs}


# GPT-4's cl100k_base and GPT-4o's o200k_base split as tiktoken_ext/
# openai_public.py writes it; Llama 3 as Meta's llama/tokenizer.py does
CL100K = (r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"
          r"| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s")
O200K = "|".join([
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*"
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+"
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"\p{N}{1,3}", r" ?[^\s\p{L}\p{N}]+[\r\n/]*", r"\s*[\r\n]+", r"\s+(?!\S)",
    r"\s+"])
LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
          r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def rank_encode(text, ranks, pattern=GPT2):
    """Turn text into token IDs as tiktoken does: join the best-ranked pairs.

    >>> rank_encode("aab", {**{bytes([b]): b for b in range(256)}, b"ab": 256})
    [97, 256]
    """
    text, ranks = _utf8("text", text), _ranks(ranks)
    pattern = _pattern(pattern)
    ids = []
    for piece in split_words(text, pattern):
        whole = piece.encode("utf-8")  # a piece that is a token is one at once
        parts = [whole] if whole in ranks else [bytes([b]) for b in whole]
        while pairs := [(ranks[a + b], k) for k, (a, b)
                        in enumerate(zip(parts, parts[1:])) if a + b in ranks]:
            _, k = min(pairs)  # the lowest rank; of a tie, the leftmost
            parts[k:k + 2] = [parts[k] + parts[k + 1]]
        ids += [ranks[part] for part in parts]
    return ids


# --- claim: three files, one rule: join the best-ranked pair of neighbours ----
# GPT-2's merges rank a pair by when training made it, a tiktoken file ranks
# its tokens, and a SentencePiece model (Llama 2's, Mistral's) scores its
# pieces: bpe_encode, rank_encode and sp_encode each join the best pair, again
# and again. SentencePiece works on characters, a space written ▁, and spells a
# piece it lacks in byte pieces, <0xE1>. Its file is a protobuf message.

def _fields(data):
    """Yield a protobuf message's fields, (number, value): an int, or bytes."""
    at = 0
    def varint():  # 7 bits a byte, the lowest first, up to a byte below 128
        nonlocal at
        value, shift = 0, 0
        while at < len(data):
            at, shift = at + 1, shift + 7
            value |= (data[at - 1] & 127) << shift - 7
            if data[at - 1] < 128:
                return value
        raise ValueError(f"a number runs past the end, byte {len(data):,}")
    while at < len(data):
        number, kind = divmod(varint(), 8)  # the key: field number, wire type
        if kind == 0:
            yield number, varint()
            continue
        if kind not in (1, 2, 5):  # 3 and 4 were groups, long retired
            raise ValueError(f"wire type {kind} at byte {at:,} is no field's")
        size = {1: 8, 5: 4}.get(kind) or varint()
        at += size
        if at > len(data):  # a slice would quietly stop short
            raise ValueError(f"field {number} runs past the end: {at:,}")
        yield number, data[at - size:at]


# What encoding reads of a model's settings: (message, field): its name, in
# SentencePiece's sentencepiece_model.proto (2: the trainer's; 3: normaliser's)
SP_FLAGS = {(2, 35): "byte_fallback", (3, 3): "add_dummy_prefix",
            (3, 4): "remove_extra_whitespaces", (3, 5): "escape_whitespaces"}


def read_sentencepiece(path):
    """Read a SentencePiece model (its path, or its bytes): each piece's text,
    score and type (1 normal, 2 unknown, 3 control, 6 a byte), and its flags.

    >>> pieces = [b"\\n\\n\\n\\x06<0x%02X>\\x18\\x06" % b for b in range(256)]
    >>> settings = b"\\x12\\x05\\x18\\x02\\x98\\x02\\x01"  # BPE, byte fallback
    >>> model = read_sentencepiece(b"".join(pieces) + settings)
    >>> model["pieces"][65], model["byte_fallback"]
    (('<0x41>', 0.0, 6), True)
    """
    path = _sentencepiece_file(path)
    import struct  # here, not at the top: the lesson's view reads no file
    if not isinstance(path, bytes):  # a path: its bytes
        with open(path, "rb") as file:
            path = file.read()
    model = {"pieces": [], **dict.fromkeys(SP_FLAGS.values(), True),
             "byte_fallback": False}  # protobuf's defaults: a file says others
    for number, value in _fields(path):
        if number == 1:  # a piece: its text (field 1), score (2) and type (3)
            piece = dict(_fields(value))
            score = struct.unpack("<f", piece.get(2, bytes(4)))[0]  # a float32
            model["pieces"].append((piece.get(1, b"").decode("utf-8"), score,
                                    piece.get(3, 1)))
        for field, flag in _fields(value) if number in (2, 3) else ():
            if (number, field) in SP_FLAGS:
                model[SP_FLAGS[number, field]] = bool(flag)
    return model


def sp_encode(text, model):
    """Turn text into token IDs as SentencePiece does: join best-scored pairs.

    >>> pieces = [(f"<0x{b:02X}>", 0.0, 6) for b in range(256)] + [
    ...     ("\\u2581", 0.0, 1), ("a", 0.0, 1), ("\\u2581a", -1.0, 1)]
    >>> sp_encode("a b", {"pieces": pieces, "byte_fallback": True,
    ...     "add_dummy_prefix": True, "remove_extra_whitespaces": False,
    ...     "escape_whitespaces": True})  # ▁a ▁ b: b is byte 0x62
    [258, 256, 98]
    """
    text, model = _utf8("text", text), _sp_model(model)
    made = {piece: (-score, i) for i, (piece, score, kind)
            in enumerate(model["pieces"]) if kind == 1}  # text can make these
    parts = list(_sp_text(text, model))
    while pairs := [(made[a + b][0], k) for k, (a, b)
                    in enumerate(zip(parts, parts[1:])) if a + b in made]:
        _, k = min(pairs)  # the best score (its negative is least); leftmost
        parts[k:k + 2] = [parts[k] + parts[k + 1]]
    byte = {piece: i for i, (piece, _, _) in enumerate(model["pieces"])}
    return [i for part in parts for i in (
        [made[part][1]] if part in made else  # or its bytes' pieces
        [byte[f"<0x{b:02X}>"] for b in part.encode("utf-8")])]


def _sp_text(text, model):
    """Write text as SentencePiece's normaliser does, as model's flags say."""
    if model["remove_extra_whitespaces"]:
        text = " ".join(filter(None, text.split(" ")))
    text = " " * (model["add_dummy_prefix"] and bool(text)) + text
    return text.replace(" ", "\u2581") if model["escape_whitespaces"] else text


# --- claim: the lookup is a one-hot vector times the table -------------------

def one_hot(token_id, size):
    """Return `size` zeros with a single 1 at index token_id.

    >>> one_hot(3, 6) == [0, 0, 0, 1, 0, 0]
    True
    """
    size = _whole("size", size, 1)
    token_id = _whole("token_id", token_id, 0, size - 1)
    return [1 if i == token_id else 0 for i in range(size)]


def vecmat(vector, matrix):
    """Return vector x matrix: out[j] = vector . column j; numbers unchecked.

    >>> vecmat([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]])
    [7.0, 10.0]
    """
    vector = _vector("vector", vector)
    matrix = _rows("matrix", matrix, len(vector), of="vector")
    columns = [[x * y for x, y in zip(vector, c)] for c in zip(*matrix)]
    return [math.fsum(c) if math.isfinite(sum(c)) else sum(c) for c in columns]


# --- claim: a real table holds about 524 million numbers ---------------------

def param_count(vocab_size, d_model):
    """Count the numbers in a vocab_size x d_model embedding table.

    >>> param_count(128_000, 4096)
    524288000
    """
    vocab_size = _whole("vocab_size", vocab_size, 1)
    d_model = _whole("d_model", d_model, 1)
    return vocab_size * d_model


# --- claim: the table is learned like every other weight ---------------------

def lookup_backward(grad_rows, ids, n_rows, padding_idx=None):
    """Return the table's gradient: each position's row added into its ID's.

    >>> lookup_backward([[1.0, 2.0], [0.5, 0.5]], [1, 1], 3)  # ID 1 twice
    [[0.0, 0.0], [1.5, 2.5], [0.0, 0.0]]
    """
    n_rows = _whole("n_rows", n_rows, 1)
    ids = _ids(ids, n_rows)
    padding_idx = padding_idx if padding_idx is None else _whole(
        "padding_idx", padding_idx, -n_rows, n_rows - 1)
    grad_rows = _rows("grad_rows", grad_rows, len(ids), of="ids")
    grad = [[0.0] * len(grad_rows[0]) for _ in range(n_rows)]
    for i, row in zip(ids, grad_rows):
        grad[i] = [g + x for g, x in zip(grad[i], row)]  # add: never overwrite
    if padding_idx is not None:  # the padding row never learns, as in PyTorch
        grad[padding_idx] = [0.0] * len(grad[0])  # -1: the last, as in Python
    return grad


def sgd_step(table, grad, lr):
    """Return the table after one step of gradient descent: each x - lr x grad.

    >>> sgd_step([[1.0, 2.0], [3.0, 4.0]], [[0.5, 0.0], [0.0, 0.0]], 0.1)
    [[0.95, 2.0], [3.0, 4.0]]
    """
    table, grad = _rows("table", table), _rows("grad", grad)
    if [len(grad), len(grad[0])] != [len(table), len(table[0])]:
        raise ValueError(f"grad must have the table's shape, {len(table)} x "
                         f"{len(table[0])}: one number per number")
    lr = _number("lr", lr)
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
TRAIN_D_MODEL = 16   # numbers per trained word vector
TRAIN_EPOCHS = 20    # passes over the corpus
LEARNING_RATE = 0.25
NEGATIVES = 2        # random "non-neighbours" per real (word, context) pair


def dot(u, v):
    """Return the dot product u . v, exact; numbers unchecked: a nan shows.

    >>> dot([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    32.0
    """
    u, v = _vector("u", u), _vector("v", v)
    if len(u) != len(v):  # zip would quietly drop the longer one's tail
        raise ValueError(f"vectors of lengths {len(u)} and {len(v)} differ")
    terms = [x * y for x, y in zip(u, v)]  # fsum: exact; sum: IEEE's inf, nan
    return math.fsum(terms) if math.isfinite(sum(terms)) else sum(terms)


def cosine(u, v):
    """Return the cosine of the angle between u and v: 1 alike, 0 unrelated.

    >>> cosine([1, 0], [1, 1])
    0.7071067811865475
    """
    u, v = _finite("u", _vector("u", u)), _finite("v", _vector("v", v))
    if not any(u) or not any(v):  # 0 / 0 would fail with no word of why
        raise ValueError("a zero vector points nowhere: it has no cosine")
    def scaled(w):  # divided by a power of 2 near its largest number: exact
        _, exponent = math.frexp(max(map(abs, w)))
        return [math.ldexp(x, -exponent) for x in w]
    u, v = scaled(u), scaled(v)  # now no square below can overflow or vanish
    similarity = dot(u, v) / math.sqrt(dot(u, u) * dot(v, v))
    return max(-1.0, min(1.0, similarity))  # rounding can stray a hair past 1


def context_pairs(sentences, vocab, window=2):
    """List each (word ID, context ID) pair at most `window` words apart.

    >>> context_pairs(["a b c"], ["a", "b", "c"], window=1)
    [(0, 1), (1, 0), (1, 2), (2, 1)]
    """
    vocab = _vocab(vocab)
    sentences = _texts("sentences", sentences, vocab)
    window = _whole("window", window, 1)
    id_of = {word: i for i, word in enumerate(vocab)}  # one look-up for all
    pairs = []
    for sentence in sentences:
        ids = [id_of[word] for word in sentence.split()]
        for i, word in enumerate(ids):
            near = range(max(0, i - window), min(len(ids), i + window + 1))
            pairs += [(word, ids[j]) for j in near if j != i]
    return pairs


def sigmoid(x):
    """Squash a number into 0 to 1: 1 / (1 + e^-x).

    >>> sigmoid(0), sigmoid(-1000)
    (0.5, 0.0)
    """
    x = _number("x", x, finite=False)
    if x < 0:  # e^-x would overflow below about -709; e^x / (1 + e^x) cannot
        return math.exp(x) / (1 + math.exp(x))
    return 1 / (1 + math.exp(-x))


def sgns_step(word, context, label, lr):
    """Nudge both vectors so that sigmoid(word . context) moves toward label.

    >>> w, c = [1.0, 0.0], [0.0, 1.0]
    >>> sgns_step(w, c, 1, 0.5)  # label 1: a real neighbour, pull together
    >>> w, c
    ([1.0, 0.25], [0.25, 1.0])
    """
    if not isinstance(word, list) or not isinstance(context, list):
        raise TypeError(f"word and context must be lists, as sgns_step "
                        f"changes them in place; got {type(word).__name__} "
                        f"and {type(context).__name__}")
    if label not in (0, 1):
        raise ValueError(f"label must be 1 (a real neighbour) or 0 (a random "
                         f"word), got {_shown(label)}")
    lr = _number("lr", lr)
    if len(word) != len(context):  # zip would quietly cut the longer short
        raise ValueError(f"word: {len(word)} numbers, context: {len(context)}")
    terms = [w * c for w, c in zip(word, context)]  # word . context, as dot
    score = math.fsum(terms) if math.isfinite(sum(terms)) else sum(terms)
    g = lr * (label - sigmoid(score))
    word[:], context[:] = ([w + g * c for w, c in zip(word, context)],
                           [c + g * w for w, c in zip(word, context)])


def train_embeddings(corpus, seed=SEED, epochs=TRAIN_EPOCHS, vocab=None):
    """Train word vectors by skip-gram with negative sampling: (vocab, table).

    >>> vocab, table = train_embeddings(["a b", "b c"], epochs=1)
    >>> vocab, len(table) == len(vocab)
    (['a', 'b', 'c'], True)
    """
    vocab = None if vocab is None else _vocab(vocab)
    corpus = _corpus(corpus, vocab)
    seed = _whole("seed", seed, 0, hint=NEGATIVE_SEED)
    epochs = _whole("epochs", epochs, 0)
    if vocab is None:  # vocab sets the ID order: by default, alphabetical
        vocab = sorted({word for text in corpus for word in text.split()})
    rng = random.Random(seed)
    # each word gets two rows, as a word and as a context: small and random
    words = [[rng.uniform(-0.5, 0.5) / TRAIN_D_MODEL
              for _ in range(TRAIN_D_MODEL)] for _ in vocab]
    contexts = [[rng.uniform(-0.5, 0.5) / TRAIN_D_MODEL
                 for _ in range(TRAIN_D_MODEL)] for _ in vocab]
    pairs = context_pairs(corpus, vocab)
    for epoch in range(epochs):
        lr = LEARNING_RATE * (1 - epoch / epochs)  # to 0, as in word2vec
        rng.shuffle(pairs)
        for word, context in pairs:
            others = [rng.randrange(len(vocab)) for _ in range(NEGATIVES)]
            for other, label in [(context, 1)] + [(o, 0) for o in others]:
                sgns_step(words[word], contexts[other], label, lr)
    # all rows end up leaning one shared way: take it out, keep differences
    mean = [(math.fsum(c) if math.isfinite(sum(c)) else sum(c)) / len(words)
            for c in zip(*words)]  # exact, or IEEE's inf or nan, as in dot
    return vocab, [[x - m for x, m in zip(row, mean)] for row in words]


def nearest(word, vocab, table, k=3):
    """Return the k other words whose rows point most nearly as word's does.

    >>> nearest("b", ["a", "b", "c", "d"], [[1, 0], [2, 1], [0, 1], [0, 0]], 2)
    [('a', 0.8944271909999159), ('c', 0.4472135954999579)]
    """
    vocab = _vocab(vocab)
    word = _word(word, vocab)
    table = _finite("table", _rows("table", table, len(vocab)), rows=True)
    k = _whole("k", k, 1)
    i = vocab.index(word)
    if not any(table[i]):  # a zero row points nowhere: no angle to measure
        raise ValueError(f"{word} has a zero row, so nothing is near it")
    scores = [(other, cosine(table[i], row)) for j, (other, row)
              in enumerate(zip(vocab, table)) if j != i and any(row)]
    return sorted(scores, key=lambda pair: pair[1], reverse=True)[:k]  # by ID


# --- claim: the layers above make the vectors contextual ---------------------

def softmax(scores):
    """Turn scores into weights that are positive and sum to 1.

    >>> softmax([0.0, 0.0, -1000.0])  # exp(-1000) is too small for a float: 0
    [0.5, 0.5, 0.0]
    """
    scores = _vector("scores", scores, least=1)
    top = max(scores)  # take the largest score off, and exp cannot overflow
    exps = [math.exp(score - top) for score in scores]
    total = math.fsum(exps)
    return [e / total for e in exps]


def attend(rows):
    """Mix the rows: row q becomes a softmax(q . k / sqrt(d))-weighted average.

    >>> [[round(x, 2) for x in row] for row in attend([[1.0, 0], [0, 1.0]])]
    [[0.67, 0.33], [0.33, 0.67]]
    """
    rows = _rows("rows", rows)
    scale = math.sqrt(len(rows[0]))  # one head, no learned projections yet
    return [vecmat(softmax([dot(q, k) / scale for k in rows]), rows)
            for q in rows]


# --- claim: a sentence embedding is not a token embedding --------------------

def sentence_vector(rows):
    """Pool a text's contextual rows into one vector: their average.

    >>> sentence_vector([[1.0, 2.0], [3.0, 6.0]])
    [2.0, 4.0]
    """
    rows = _rows("rows", rows)
    return [(math.fsum(c) if math.isfinite(sum(c)) else sum(c)) / len(rows)
            for c in zip(*rows)]  # exact, or IEEE's inf or nan, as in dot


def search(query, sentences, vocab, table, k=3):
    """Rank sentences by how alike their sentence vectors are to the query's.

    >>> search("a", ["c", "b"], ["a", "b", "c"], [[1, 0], [1, 0], [0, 1]])
    [('b', 1.0), ('c', 0.0)]
    """
    vocab = _vocab(vocab)
    query = _text("query", query, vocab, least=1)
    sentences = _texts("sentences", sentences, vocab)
    table = _finite("table", _rows("table", table, len(vocab)), rows=True)
    k = _whole("k", k, 1)
    def vector_of(text):
        return sentence_vector(attend(lookup(table, encode(text, vocab))))
    target = vector_of(query)
    if not any(target):  # a zero vector points nowhere: no angle to measure
        raise ValueError("the query's sentence vector is zero: none is near")
    vectors = ((s, vector_of(s)) for s in sentences if s.split())  # no words
    ranked = [(s, cosine(target, v)) for s, v in vectors if any(v)]  # no zeros
    return sorted(ranked, key=lambda pair: pair[1], reverse=True)[:k]  # stable


# --- claims: attention alone cannot see order; positions add it --------------

N_POSITIONS = 8  # rows of the lesson's position table: texts of up to 8 tokens


def embed(ids, table, positions):
    """Return each token's input vector: its table row plus its position's row.

    >>> embed([1, 1], [[0.0, 0.0], [1.0, 2.0]], [[0.5, 0.0], [0.0, 0.5]])
    [[1.5, 2.0], [1.0, 2.5]]
    """
    table = _rows("table", table)
    positions = _rows("positions", positions, width=len(table[0]),
                      of="table's rows")
    ids = _ids(ids, len(table))
    if len(ids) > len(positions):  # zip would quietly drop the tokens past it
        raise ValueError(f"positions has no row for position {len(positions)}")
    return [[t + p for t, p in zip(table[i], row)]
            for i, row in zip(ids, positions)]


def sinusoidal(n_positions, d_model, base=10_000):
    """Return n_positions rows: sin(pos / base^(2i/d)) at 2i, cos at 2i + 1.

    >>> [[round(x, 3) for x in row] for row in sinusoidal(2, 4)]
    [[0.0, 1.0, 0.0, 1.0], [0.841, 0.54, 0.01, 1.0]]
    """
    n_positions = _whole("n_positions", n_positions, 1)
    d_model = _whole("d_model", d_model, 2, even=True)
    base = _number("base", base, positive=True)
    angles = [[pos / base ** (2 * i / d_model) for i in range(d_model // 2)]
              for pos in range(n_positions)]
    return [[f(angle) for angle in row for f in (math.sin, math.cos)]
            for row in angles]


def rotation(k, d_model, base=10_000):
    """Return R_k: the matrix that moves any sinusoidal row k positions on.

    >>> [[round(x, 3) for x in row] for row in rotation(1, 2)]
    [[0.54, -0.841], [0.841, 0.54]]
    """
    k = _number("k", _whole("k", k, 0))
    d_model = _whole("d_model", d_model, 2, even=True)
    base = _number("base", base, positive=True)
    turn = [[0.0] * d_model for _ in range(d_model)]
    for i in range(0, d_model, 2):  # a 2 x 2 rotation on the diagonal per pair
        angle = k / base ** (i / d_model)
        turn[i][i], turn[i][i + 1] = math.cos(angle), -math.sin(angle)
        turn[i + 1][i], turn[i + 1][i + 1] = math.sin(angle), math.cos(angle)
    return turn


def rotate(vector, cosines, sines, halves=False):
    """Rotate pair i, 2i and 2i + 1 (halves: i and i + d/2), by cos i, sin i.

    >>> rotate([1.0, 0.0], [0.0], [1.0])  # a quarter turn
    [0.0, 1.0]
    """
    vector, cosines = _vector("vector", vector), _vector("cosines", cosines)
    sines = _vector("sines", sines)
    if not len(vector) == 2 * len(cosines) == 2 * len(sines):
        raise ValueError(f"a vector of {len(vector)} numbers needs a cosine "
                         f"and a sine for each of its pairs; got "
                         f"{len(cosines)} and {len(sines)}")
    halves = _flag("halves", halves)
    half = len(cosines)
    out = list(vector)
    for i, (cos, sin) in enumerate(zip(cosines, sines)):
        a, b = (i, i + half) if halves else (2 * i, 2 * i + 1)
        out[a] = vector[a] * cos - vector[b] * sin
        out[b] = vector[a] * sin + vector[b] * cos
    return out


def rope(vector, position, base=10_000, halves=False):
    """Rotate each pair of numbers by position x its frequency, as RoPE does.

    >>> [round(x, 3) for x in rope([1.0, 0.0, 1.0, 0.0], 1)]
    [0.54, 0.841, 1.0, 0.01]
    """
    vector = _vector("vector", vector)
    if len(vector) % 2:
        raise ValueError(f"a vector of {len(vector)} numbers cannot be "
                         "rotated: RoPE turns numbers in pairs, so their "
                         "count must be even")
    position = _number("position", _whole("position", position, 0))
    base = _number("base", base, positive=True)
    halves = _flag("halves", halves)
    angles = [position / base ** (2 * i / len(vector))
              for i in range(len(vector) // 2)]
    return rotate(vector, [math.cos(a) for a in angles],
                  [math.sin(a) for a in angles], halves)


# --- claim: a batch pads its texts, and a mask makes the pads change nothing -

def pad_batch(batch, pad_id=0, side="right"):
    """Pad lists of IDs to one length: return them, and the mask (1, a token).

    >>> pad_batch([[5, 6], [7]], side="left")
    ([[5, 6], [0, 7]], [[1, 1], [0, 1]])
    """
    if not isinstance(batch, (list, tuple)) or not batch:
        raise TypeError(f"batch must be a list of one or more lists of token "
                        f"IDs, one a text, not {_shown(batch)}")
    batch = [_ids(ids, None, f"batch[{k}]") for k, ids in enumerate(batch)]
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', not {_shown(side)}")
    pad_id = _whole("pad_id", pad_id, 0)
    width, padded, mask = max(map(len, batch)), [], []
    for ids in batch:
        pads, ones = [0] * (width - len(ids)), [1] * len(ids)
        if side == "right":  # the tokens first, then the pads
            padded.append(list(ids) + [pad_id] * len(pads))
            mask.append(ones + pads)
        else:  # the pads first: the text's last token ends the row
            padded.append([pad_id] * len(pads) + list(ids))
            mask.append(pads + ones)
    return padded, mask


def position_ids(mask):
    """Number tokens from 0, as Hugging Face does: cumsum(mask) - 1; a pad, 1.

    >>> position_ids([0, 0, 1, 1])
    [1, 1, 0, 1]
    """
    mask = _mask(mask)
    seen, ids = 0, []
    for real in mask:
        seen += real  # how many tokens so far: the cumulative sum
        ids.append(seen - 1 if real else 1)
    return ids


def masked_attend(rows, mask):
    """Attend as attend does, but to no pad: its score is -inf, its weight 0.0.

    >>> masked_attend([[1.0], [9.0]], [1, 0])[0]  # the pad's 9.0 adds nothing
    [1.0]
    """
    rows = _rows("rows", rows)
    mask = _mask(mask, len(rows))
    scale = math.sqrt(len(rows[0]))
    return [vecmat(softmax([dot(q, k) / scale if real else -math.inf
                            for k, real in zip(rows, mask)]), rows)
            for q in rows]


# --- claim: the output layer reads the table again ---------------------------

def head_gradient(vector, table, target):
    """Return each output row's gradient of -log softmax(logits)[target].

    >>> head_gradient([2.0], [[0.0], [0.0]], 0)  # p is 0.5 for each row
    [[-1.0], [1.0]]
    """
    vector = _vector("vector", vector)
    table = _rows("table", table, width=len(vector), of="vector")
    target = _whole("target", target, 0, len(table) - 1)
    weights = softmax(logits(vector, table))  # p_j > 0, unless exp underflows
    return [[(p - (j == target)) * x for x in vector]
            for j, p in enumerate(weights)]


def logits(vector, table):
    """Score each token for the vector: its dot product with the token's row.

    >>> logits([1.0, 0.0], [[0.5, 0.5], [2.0, 0.0]])
    [0.5, 2.0]
    """
    vector = _vector("vector", vector)
    table = _rows("table", table, width=len(vector), of="vector")
    return [dot(vector, row) for row in table]  # the embedding table, reread


# --- input checks: one checker per kind of value -----------------------------
# A public function's check lines, first in its body, call these and no other
# function here; the idea after them, none. A checker calls only MESSAGES; it
# refuses only a wrong answer with no error, or an error naming neither value
# nor fix, and hands the value back, or plainer (NumPy's as Python's). A list
# or tuple is a sequence; its numbers are checked only where compared: _finite.

CHECKERS = ("_whole", "_ids", "_mask", "_vocab", "_text", "_word",
            "_texts", "_corpus", "_number", "_vector", "_rows", "_flag",
            "_finite", "_utf8", "_merges", "_ranks", "_pattern", "_byte_vocab",
            "_ranks_file", "_merges_file", "_sentencepiece_file", "_sp_model")
MESSAGES = ("_shown", "_unknown", "_lines")  # what the checkers use
_CHECKED = []  # the tuple of merges checked last, alone
NEGATIVE_SEED = (" (random.Random(-5) draws what random.Random(5) draws, so a "
                 "negative seed would only repeat one)")


def _whole(name, value, least, most=None, even=False, hint=""):
    """Return value as an int from least (to most, if given), even if asked."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}: "
                        f"{_shown(value)}")
    if most is not None and not least <= int(value) <= most:
        raise IndexError(f"{name} {_shown(int(value))} is out of range; valid "
                         f"values are {least} to {most}")
    if int(value) < least or even and int(value) % 2:
        raise ValueError(f"{name} must be {'an even int ' * even}at least "
                         f"{least}, got {_shown(int(value))}{hint}")
    return int(value)


def _ids(ids, size, name="ids", rows=None):
    """Return ids, ints 0 to size - 1, as ints; the rows they pick, lists."""
    if not isinstance(ids, (list, tuple, range)):
        raise TypeError(f"{name} must be a list of token IDs, not "
                        f"{_shown(ids)}")
    limit = math.inf if size is None else size
    plain = set(map(type, ids)) <= {int} and 0 <= min(ids, default=0) and max(
        ids, default=0) < limit  # the usual case: plain ints in range, at once
    for at, i in enumerate([] if plain else ids):
        whole = hasattr(type(i), "__index__") and not isinstance(i, bool)
        if not whole or not 0 <= int(i) < limit:
            raise (IndexError if whole else TypeError)(
                f"token ID {_shown(i)} at position {at} of {name} is not an "
                f"int from 0" + ("" if size is None else f" to {size - 1}"))
    ids = list(ids) if plain else [int(i) for i in ids]  # NumPy's as Python's
    odd = [i for i in ids if not isinstance(rows[i], (list, tuple))] if (
        rows is not None) else []
    if odd:  # "abc" would be three numbers; a generator, none the second time
        raise TypeError(f"row {odd[0]} must be a list of numbers, not "
                        f"{_shown(rows[odd[0]])}")
    return ids


def _mask(mask, size=None):
    """Return mask, a list or tuple of 1 (a token) and 0 (a pad), as ints."""
    if not isinstance(mask, (list, tuple)) or 1 not in mask or not all(
            m in (0, 1) and not isinstance(m, complex) for m in mask):
        raise ValueError(f"mask must be a list of 1s for tokens and 0s for "
                         f"pads, with a token, not {_shown(mask)}")
    if size is not None and len(mask) != size:
        raise ValueError(f"len(mask) is {len(mask)} but len(rows) is {size}; "
                         "they must match")
    return [int(m) for m in mask]


def _vocab(vocab):
    """Return vocab, a list or tuple of distinct str, as a list."""
    if not isinstance(vocab, (list, tuple)) or not all(
            isinstance(word, str) for word in vocab):
        raise TypeError(f"vocab must be a list of words (str), not "
                        f"{_shown(vocab)}")
    if len(set(vocab)) < len(vocab):
        twice = next(w for k, w in enumerate(vocab) if w in vocab[:k])
        raise ValueError(f"vocab lists {_shown(twice)} twice; each word needs "
                         "one ID")
    return list(vocab)


def _text(name, text, vocab, least=0):
    """Return text: a str of at least `least` words, all in vocab (if any)."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, not {type(text).__name__}: "
                        f"{_shown(text)}")
    if vocab is None:
        return text
    words, known = text.split(), set(vocab)
    if len(words) < least:
        raise ValueError(f"{name} needs at least {least} word, got none")
    unknown = [(at, w) for at, w in enumerate(words) if w not in known]
    if unknown:
        raise ValueError(_unknown(*unknown[0], vocab))
    return text


def _word(word, vocab):
    """Return word, if it is one of vocab's words, as it stands there."""
    if not isinstance(word, str) or word not in vocab:
        raise ValueError(_unknown(None, word, vocab))
    return word


def _texts(name, texts, vocab):
    """Return texts, a list or tuple of str of UTF-8 (and of vocab's words)."""
    if not isinstance(texts, (list, tuple)):
        raise TypeError(f"{name} must be a list of str, not {_shown(texts)}")
    known = set(vocab or ())
    for k, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"{name}[{k}] must be a str, not {_shown(text)}")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:  # tiktoken writes U+FFFD: refused
            raise ValueError(f"{name}[{k}] holds a lone surrogate, "
                             f"{_shown(text[error.start])}, at position "
                             f"{error.start:,}: no UTF-8 bytes") from None
        unknown = [(at, w) for at, w in enumerate(text.split())
                   if vocab is not None and w not in known]
        if unknown:
            raise ValueError(f"{name}[{k}] has an "
                             + _unknown(*unknown[0], vocab))
    return list(texts)


def _corpus(corpus, vocab):
    """Return corpus, str with a sentence of two words or more, in vocab."""
    if not isinstance(corpus, (list, tuple)) or not all(
            isinstance(text, str) for text in corpus):
        raise TypeError(f"corpus must be a list of str, not {_shown(corpus)}")
    if not any(len(sentence.split()) > 1 for sentence in corpus):
        raise ValueError("the corpus has no sentence of two words or more, so "
                         "no word has a neighbour to learn from")
    words = {word for text in corpus for word in text.split()}
    if vocab is not None and set(vocab) != words:
        missing = ", ".join(sorted(words - set(vocab))) or "none"
        extra = ", ".join(sorted(map(repr, set(vocab) - words))) or "none"
        raise ValueError(f"vocab must list each word of the corpus once, in "
                         f"any order; missing: {missing[:200]}; not in the "
                         f"corpus: {extra[:200]}")
    return list(corpus)


def _number(name, x, positive=False, finite=True):
    """Return real x as an int or float: finite if finite, > 0 if positive."""
    if type(x) not in (int, float):
        import numbers  # here, not at the top: only other numbers need it
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise TypeError(f"{name} must be a real number, not "
                            f"{type(x).__name__}: {_shown(x)}")
        x = int(x) if hasattr(type(x), "__index__") else float(x)
    big = type(x) is int and not abs(x) <= sys.float_info.max  # 10**400
    if finite and not abs(x) <= sys.float_info.max or positive and not x > 0:
        raise ValueError(f"{name} must be a finite number"
                         f"{' above 0' * positive}, got {_shown(x)}"
                         + ", too large for a float" * big)
    return (math.inf if x > 0 else -math.inf) if big else x


def _vector(name, values, least=0):
    """Return values, a list or tuple of numbers, as a list of plain ones."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{name} must be a list of numbers, not "
                        f"{_shown(values)}")
    if len(values) < least:
        raise ValueError(f"{name} needs at least {least} number, got none")
    if not set(map(type, values)) <= {int, float}:  # int8: 100 x 100 is 16,
        values = [int(x) if hasattr(type(x), "__index__") else float(x) if (
            hasattr(x, "__float__") and not hasattr(x, "numerator")) else x
            for x in values]  # float16: 3 x 683 is 2048; a Fraction is exact
    return list(values)


def _rows(name, rows, count=None, width=None, of="vocab"):
    """Return rows, a list or tuple of rows of one length, as _vector would."""
    odd = [row for row in rows if not isinstance(row, (list, tuple))] if (
        isinstance(rows, (list, tuple))) else [rows]
    if odd:
        raise TypeError(f"{name} must be a list of rows of numbers, not "
                        f"{_shown(odd[0])}")
    lengths = sorted(set(map(len, rows)))
    if len(lengths) != 1 or lengths == [0]:
        raise ValueError(f"{name} must hold rows of one length, 1 or more; "
                         f"got {f'lengths {lengths}' if rows else 'no rows'}")
    if count not in (None, len(rows)):
        raise ValueError(f"len({name}) is {len(rows)} but len({of}) is "
                         f"{count}")
    if width not in (None, lengths[0]):
        raise ValueError(f"each row of {name} must hold as many numbers as "
                         f"{of}: {width}, not {lengths[0]}")
    if not all(set(map(type, row)) <= {int, float} for row in rows):
        rows = [[int(x) if hasattr(type(x), "__index__") else float(x) if (
            hasattr(x, "__float__") and not hasattr(x, "numerator")) else x
            for x in row] for row in rows]  # NumPy's, as in _vector
    return list(rows)


def _finite(name, values, rows=False):
    """Return values (a vector, or rows), if each number is a finite float."""
    for i, row in enumerate(values if rows else [values]):
        bad = [(k, x) for k, x in enumerate(row)
               if not abs(x) <= sys.float_info.max]  # nan, inf, 10**400
        for k, x in bad[:1]:  # nan breaks max and sort
            raise ValueError(f"{name}{f' row {i}' * rows} holds {_shown(x)} "
                             f"at {'column' if rows else 'position'} {k}: "
                             + ("too large for a float" if type(x) is int
                                else "not a finite number"))
    return values


def _flag(name, value):
    """Return value, True or False: a flag is a bool, not any other value."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not "
                        f"{type(value).__name__}: {_shown(value)}")
    return value


def _utf8(name, text):
    """Return text: a str whose every character has UTF-8 bytes."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, not {type(text).__name__}: "
                        f"{_shown(text)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:  # tiktoken writes U+FFFD: we refuse
        raise ValueError(f"{name} holds a lone surrogate, "
                         f"{_shown(text[error.start])}, at position "
                         f"{error.start:,}: it has no UTF-8 bytes") from None
    return text


def _merges(merges):
    """Return merges, pairs of IDs made before, as tuples; a tuple, once."""
    if _CHECKED and merges is _CHECKED[0]:
        return merges
    if not isinstance(merges, (list, tuple)):
        raise TypeError(f"merges must be a list of pairs of token IDs, not "
                        f"{_shown(merges)}")
    pairs = [tuple(p) if isinstance(p, (list, tuple)) else p for p in merges]
    for k, pair in enumerate(pairs):
        if type(pair) is not tuple or len(pair) != 2 or (
                type(pair[0]) is not int or type(pair[1]) is not int):
            raise TypeError(f"merges[{k}] must be a pair of token IDs, not "
                            f"{_shown(pair)}")
        if not (0 <= pair[0] < 256 + k and 0 <= pair[1] < 256 + k):
            raise ValueError(f"merges[{k}] is {_shown(pair)}, but merge {k} "
                             f"makes ID {256 + k}: it may join only IDs 0 to "
                             f"{255 + k}, made before it")
    if len(set(pairs)) < len(pairs):  # a pair merges once: the first ID
        twice = next(p for k, p in enumerate(pairs) if p in pairs[:k])
        raise ValueError(f"merges lists the pair {twice} twice; each pair is "
                         "merged once, into one ID")
    if type(merges) is tuple and all(type(pair) is tuple for pair in merges):
        _CHECKED[:] = [merges]  # checked once: the same tuple, not again
    return pairs


def _ranks(ranks):
    """Return ranks, a dict of tokens' bytes to int IDs, one for each byte."""
    if not isinstance(ranks, dict):
        raise TypeError(f"ranks must be a dict of bytes to token IDs, as "
                        f"read_ranks returns, not {_shown(ranks)}")
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:  # each piece starts as its bytes
        raise ValueError(f"ranks has no ID for byte {missing[0]:#04x}: each "
                         "byte must be a token")
    if not set(map(type, ranks.values())) <= {int} or min(ranks.values()) < 0:
        token = next(t for t, i in ranks.items() if type(i) != int or i < 0)
        raise TypeError(f"ranks gives {_shown(token)} the rank "
                        f"{_shown(ranks[token])}, not an int from 0")
    return ranks


def _ranks_file(path):
    """Return a tiktoken file's lines, each a new token in base64 and rank."""
    import binascii  # here, not at the top: the lesson's view reads no file
    where, lines = _lines(path)
    seen, most = {}, 1  # each token: its line; the longest token yet
    for number, line in enumerate(lines, 1):
        if not line:  # a blank line, as tiktoken skips it
            continue
        token, _, rank = line.partition(" ")
        at = f"{where}line {number}, {_shown(line)},"
        try:
            data = binascii.a2b_base64(token)
        except binascii.Error:
            data = b""
        if not (rank.isdigit() and rank.isascii() and data):
            raise ValueError(f"{at} is not a token in base64, a space and its "
                             "rank" + " (it reads as GPT-2's merges)" * (
                                 number == 1 and "#version" in line))
        if binascii.b2a_base64(data, newline=False).decode() != token:
            raise ValueError(f"{at} holds {_shown(token)}: that is not base64")
        if int(rank) != len(seen):
            raise ValueError(f"{at} ranks its token {int(rank):,}, after "
                             f"{len(seen):,} tokens: a rank is the next one")
        if data in seen:
            raise ValueError(f"{at} ranks a token line {seen[data]} ranked")
        cuts = range(max(1, len(data) - most), min(len(data), most + 1))
        if len(data) > 1 and not any(data[:k] in seen and data[k:] in seen
                                     for k in cuts):  # none longer than most
            raise ValueError(f"{at} is no two tokens ranked before it")
        seen[data], most = number, max(most, len(data))
    return lines


def _merges_file(path):
    """Return GPT-2's merges' lines, each two old tokens making a new one."""
    where, lines = _lines(path)
    made = set(gpt2_bytes().values())  # each byte's letter
    for number, line in enumerate(lines, 1):
        if not line or number == 1 and line.startswith("#version"):
            continue  # a blank line, or the version line: no merge
        parts = line.split(" ")
        if len(parts) != 2 or not set(parts) <= made:  # each made before it
            looks = " (it reads as a tiktoken file's)" * parts[-1].isdigit()
            raise ValueError(f"{where}line {number}, {_shown(line)}, is not "
                             f"two tokens made before it, and a space "
                             f"between{looks}")
        if "".join(parts) in made:  # one token, two IDs: which would encode?
            raise ValueError(f"{where}line {number}, {_shown(line)}, makes "
                             f"{_shown(''.join(parts))}, made before it")
        made.add("".join(parts))
    return lines


def _sentencepiece_file(path):
    """Return a SentencePiece model's bytes, if whole, BPE, byte fallback."""
    named = isinstance(path, (str, os.PathLike))
    where = f"{os.fsdecode(path)}: " if named else ""
    if named:
        with open(path, "rb") as file:
            path = file.read()
    if not isinstance(path, bytes):
        raise TypeError(f"give a model's path, or its bytes, not "
                        f"{_shown(path)}")
    try:  # each field whole; a piece's text UTF-8, its score 4 bytes
        fields = list(_fields(path))
        said = {(n, f): v for n, v in fields if n in (2, 3)
                for f, v in _fields(v)}
        for piece in (dict(_fields(v)) for n, v in fields if n == 1):
            if not isinstance(piece.get(2, b"four"), bytes) or len(
                    piece.get(2, b"four")) != 4:  # a float32, 4 bytes
                raise ValueError("a piece's score is no float32")
            str(piece.get(1, b""), "utf-8")  # bytes, not a varint
    except (ValueError, TypeError) as error:  # UnicodeDecodeError too
        raise ValueError(f"{where}is no SentencePiece model, whole: "
                         f"{error}") from None
    kind = {1: "a unigram model (T5's, ALBERT's)", 3: "a word model",
            4: "a character model"}.get(said.get((2, 3), 1))  # unigram: none
    why = kind or (" without byte fallback" if not said.get((2, 35)) else
                   " that puts ▁ after words" if said.get((2, 24)) else
                   " whose normaliser rewrites text" * bool(said.get((3, 2))))
    if why:
        raise ValueError(f"{where}is {kind or 'a BPE model' + why}: sp_encode "
                         "reads BPE models with byte fallback, as Llama 2's "
                         "and Mistral's are")
    return path


def _sp_model(model):
    """Return model (read_sentencepiece's), if sp_encode can use it."""
    if not isinstance(model, dict) or not set(SP_FLAGS.values()) <= set(
            model) or not isinstance(model.get("pieces"), list):
        raise TypeError(f"model must be a dict as read_sentencepiece returns, "
                        f"not {_shown(model)}")
    texts = collections.Counter(piece for piece, _, _ in model["pieces"])
    for k, (piece, score, kind) in enumerate(model["pieces"]):
        why = ("is listed twice" if texts[piece] > 1 else f"scores {score}"
               if not math.isfinite(score) else f"is of type {kind} (4 user-"
               "defined, 5 unused): sp_encode knows 1, 2, 3 and 6" * (
                   kind not in (1, 2, 3, 6)))
        if why:
            raise ValueError(f"piece {k:,}, {_shown(piece)}, {why}")
    missing = [b for b in range(256) if f"<0x{b:02X}>" not in texts]
    if missing:
        raise ValueError(f"model has no piece <0x{missing[0]:02X}> for byte "
                         f"{missing[0]:#04x}: byte fallback needs all 256")
    return model


def _pattern(pattern):
    """Return pattern, if split_words knows it: GPT2, CL100K, O200K, LLAMA3."""
    if pattern not in (GPT2, CL100K, O200K, LLAMA3):
        raise ValueError(f"pattern must be GPT2, CL100K, O200K or LLAMA3, not "
                         f"{_shown(pattern)}")
    return pattern


def _byte_vocab(vocab):
    """Return vocab, a list or tuple of bytes (one a token ID), as a list."""
    if not isinstance(vocab, (list, tuple)) or not all(
            isinstance(token, bytes) for token in vocab):
        raise TypeError(f"vocab must be a list of bytes, one a token ID, not "
                        f"{_shown(vocab)}")
    return list(vocab)


def _shown(value):
    """Write a value for a message as ascii() does; a huge int, by its size."""
    big = isinstance(value, int) and value.bit_length() > 256  # 3.11: no str
    text = f"an int of {value.bit_length():,} bits" if big else ascii(value)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text):,} chars)"


def _unknown(position, word, vocab, hint=""):
    """Say that a word (at a position of a text, if any) is not in vocab."""
    where = "" if position is None else f" at position {position}"
    known = ", ".join(vocab[:60]) + (
        f", ... ({len(vocab)} words)" if vocab[60:] else "")
    return f"unknown token {_shown(word)}{where}{hint}; vocabulary: {known}"


def _lines(path):
    """Return where to say lines are, and the lines (a path's), ends off."""
    if isinstance(path, (str, bytes, os.PathLike)):  # a path, not the lines
        where = f"{os.fsdecode(path)}: "
        with open(path, "rb") as file:
            data = file.read()
        try:  # a byte-order mark is no part of the first line
            return where, data.decode("utf-8-sig").splitlines()
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise ValueError(f"{where}line {line} is not UTF-8") from None
    iterable = hasattr(path, "__iter__") and not isinstance(path, dict)
    lines = list(path) if iterable else [path]  # an open file's, read once
    odd = [line for line in lines if not isinstance(line, str)]
    if odd:
        raise TypeError(f"give a file's path, or its lines as str, not "
                        f"{_shown(odd[0])}")
    return "", [line.rstrip("\r\n") for line in lines]


# ===============================================================================
# Below this line: the program. Printing, drawing, copying, the command line and
# the operating system's edges. No lesson content.
# ===============================================================================

# --- the limits of what the command line computes ----------------------------
# 4x a very wide model: meta-llama/Llama-3.1-405B's config.json, hidden_size
# 16384
MAX_D_MODEL = 65_536
MAX_SIZE = 10**12  # --params sizes: far past any real model, quick to print
MAX_QUERY = 200  # --search words: attention compares every pair of them
MAX_NUMBERS = 4_000_000  # what a view works through: a million words of 4
MAX_TEXT = 10_000  # characters --tokens splits: it lists every token's ID
MAX_TRACE = 100  # characters --trace joins: it prints each join, and all parts after it
MAX_VOCAB = 16_000_000  # bytes of a --vocab file: o200k_base's is 3.6 MB
TOKEN_ROWS = 12  # --tokens' table: the rest are counted, their IDs all listed
MAX_BATCH = 1_000  # texts --batch pads: a row printed, 6 attends, for each
# CPython 3.11 reads ints of at most 4,300 digits (sys.int_info's
# default_max_str_digits); every Python here reads no more, for the same bytes
MAX_DIGITS = 4_300
MAX_WORDS = 1_000_000  # words from standard input: a million read in a second
MAX_BYTES = 16_000_000  # and bytes: a million words of 15 letters and a space
FIGURE_MAX = 64  # rows, or numbers a row: past this a figure is unreadable


# --- text layout -------------------------------------------------------------
# What every view prints with: wrapped lines, aligned columns, counts.

WIDTH = 80  # every view fits an 80-column terminal


def _say(line, indent):
    """Print a line, wrapped at WIDTH columns; later lines are indented."""
    wide = _width(line) - len(line)  # a wide character takes 2 columns
    if len(line) + wide <= WIDTH:
        print(line)
        return
    import textwrap  # here, not at the top: only long lines need it
    print(textwrap.fill(line, max(WIDTH - wide, 40), subsequent_indent=" " * min(
        indent, WIDTH // 2), break_long_words=False, break_on_hyphens=False))


def _columns(rows, right=(), wrap=None):
    """Print rows as aligned columns (`right` ones to the right; `wrap` ones wrap at "[")."""
    rows = [[_row_text(c) if k == wrap and not isinstance(c, str) else c
             for k, c in enumerate(row)] for row in rows]
    widths = [max(_width(row[k]) for row in rows) for k in range(len(rows[0]))]
    if wrap is not None and sum(widths) + 2 * len(widths) - 2 > WIDTH:
        widths[wrap] = WIDTH - sum(widths) + widths[wrap] - 2 * len(widths) + 2
    for row in rows:
        parts = _split_numbers(row[wrap], widths[wrap]) if wrap is not None else [""]
        cells = [parts[0] if k == wrap else c for k, c in enumerate(row)]
        pads = [" " * (w - _width(c)) for c, w in zip(cells, widths)]  # a CJK letter: 2
        cells = [p + c if k in right else c + p for k, (c, p) in enumerate(zip(cells, pads))]
        lead = "  ".join(cells[:-1] + [""])
        _say((lead + cells[-1]).rstrip(), len(lead) + 1)
        indent = len("  ".join(cells[:wrap] + [""])) + 1
        for more in parts[1:]:  # the numbers' later lines
            print(" " * indent + more)


def _split_numbers(cell, width):
    """Split '[ 0.10, -0.20, ...]' into lines of at most width; later lines lose '['."""
    if len(cell) <= width or not cell.startswith("["):
        return [cell]
    numbers = cell[1:].split(", ")
    per_line = max(1, width // 7)  # each number takes 5 characters and ", "
    lines = [", ".join(numbers[k:k + per_line]) for k in range(0, len(numbers), per_line)]
    return ("[" + ",\n".join(lines)).split("\n")  # a comma ends each line but the last


def _row_text(row):
    """Write a row of numbers with two decimals, so the columns line up."""
    return "[" + ", ".join(f"{x:5.2f}" for x in row) + "]"


def _lookups(ids, n_rows):
    """List, for each row, the positions of the text that look it up."""
    where = [[] for _ in range(n_rows)]
    for position, i in enumerate(ids):
        where[i].append(position)
    return where


def _where(found, lead=""):
    """Say where a row is looked up: '', 'position 2' or 'positions 1, 3'."""
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


def _explain_minus_zero(rows, product=False):
    """Say what a -0.00 the rows print is: -0.0, or a small negative (product: beside fsum)."""
    shown = [x for row in rows for x in row if f"{x:.2f}" == "-0.00"]  # one line, if any
    if product and 0 in shown:
        print("(-0.0, from round(), is 0.0 with a sign and equals it; fsum sums zeros to 0.0)")
    elif shown and not product:
        print("(-0.00: " + " or ".join(["-0.0, from round(), which equals 0.0"] * (
            0 in shown) + ["a negative number below 0.005"] * (min(shown) < 0)) + ")")


# What a terminal cannot show, by Unicode 3.2's frozen classes: controls, formats
# (a zero-width space), lone surrogates, private use, spaces but " "; and the bidi
# isolates, formats since Unicode 6.3
HIDDEN = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp", "Zs"}
ISOLATES = set("\u2066\u2067\u2068\u2069")


def _escaped(text, special='"\\'):
    """Write text as typed, but what a terminal cannot show (\\n, \\u200b) escaped."""
    return "".join("\\" + c if c in special else c if c == " " or not (
        unicodedata.ucd_3_2_0.category(c) in HIDDEN or c in ISOLATES)
        else c.encode("unicode_escape").decode("ascii") for c in text)


def _quoted(text):
    """Quote text as typed, escaping what a terminal cannot show; cut if long."""
    pieces = [_escaped(char) for char in text]  # cut by columns; a mark counts 1
    widths = [max(1, _width(piece)) for piece in pieces]
    if sum(widths) <= 40:
        return f'"{"".join(pieces)}"'
    kept = next(k for k in range(len(pieces) + 1) if sum(widths[:k + 1]) > 30)
    return f'"{"".join(pieces[:kept])}..." ({len(text):,} characters)'


def _width(text):
    """Count the columns text takes in a terminal: 2 a wide character, 0 a mark."""
    ucd = unicodedata.ucd_3_2_0  # ASCII, a column each, at once: a view's long line
    return len(text) if text.isascii() else sum(0 if ucd.category(c) in ("Mn", "Me", "Cf")
        else 2 if ucd.east_asian_width(c) in "WF" or ucd.category(c) == "Cn" or (
            ucd.category(c) == "So" and c >= "\u2600") else 1 for c in text)  # a wide
    # character; one newer than 3.2; a symbol from U+2600 on, as emoji are (not ␣)


def _clip(cell, pieces=None):
    """Cut a long text cell (or its pieces: never in an escape) to fit 28 columns."""
    pieces = list(cell) if pieces is None and isinstance(cell, str) else pieces
    if pieces is None or _width("".join(pieces)) <= 28:
        return cell if pieces is None else "".join(pieces)
    kept = next(k for k in range(len(pieces)) if _width("".join(pieces[:k + 1])) > 25)
    return "".join(pieces[:kept]) + "..."


def _token(token, owner, start, written=None):
    """Write a token for a row: its characters (␣ a space), a cut one's bytes and (of ◌्)."""
    text = token.decode("utf-8", "surrogateescape")  # a stray byte: U+DC80 to U+DCFF
    pieces = ["\u2423" if c == " " else f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff"
              else _escaped(c) for c in text]
    cut = sorted({owner[k] for k, c in ((start, text[0]), (start + len(token) - 1, text[-1]))
                  if "\udc80" <= c <= "\udcff"}) if text else []
    marks = ["\u25cc" * unicodedata.category(c).startswith("M") for c in cut]  # ◌ं
    return _clip(written or None, None if written else pieces) + "".join(
        f" (of {mark}{c})" for mark, c in zip(marks, cut))  # written: as a model writes it


def _say_cut(cells, cut="|"):
    """Print the cells joined by cut, wrapped at WIDTH columns, after a cut if one fits."""
    line, at = "", 0  # at: the line's length after its last cut
    for char in cut.join(cells):
        if _width(line + char) > WIDTH:  # all spaces: shown, not an empty line
            print(line[:at or len(line)].rstrip() or line.replace(" ", "\u2423"))
            line, at = line[at:] if at else "", 0
        line += char
        at = len(line) if line.endswith(cut) else at
    print(line)


def _newer(text):
    """Say which character of text, if any, this Python's Unicode does not know."""
    for c in [c for c in text if unicodedata.category(c) == "Cn"][:1]:
        _say(f"U+{ord(c):04X} is no character in this Python's Unicode "
             f"{unicodedata.unidata_version}: it is split as one unknown", 2)


def _print_cut(text, ids, vocab, heads, more, written=None):
    """Print text cut with |, a row a distinct ID (more(i) adds cells), the IDs; return those."""
    counts, cells, held, first, at = collections.Counter(ids), [], [], {}, 0
    for i in ids:  # a token can end inside a character: hold it till one ends
        held.append(vocab[i])
        first.setdefault(i, at)  # where the token's first bytes are in the text's
        at += len(vocab[i])
        try:
            cells.append(_escaped(b"".join(held).decode("utf-8"), "|\\"))
            held = []
        except UnicodeDecodeError:
            pass
    _say(f"{_quoted(text)}: {_count(len(ids), 'token')}, {len(counts):,} distinct", 2)
    if cells:  # "" has none
        _say_cut(cells)
    _newer(text)
    owner, shown = [c for c in text for _ in c.encode("utf-8")], list(counts)[:TOKEN_ROWS]
    _columns([("id", "token", "times") + heads] + [
        (str(i), _token(vocab[i], owner, first[i], (written or {}).get(i)), str(counts[i]),
         *map(_clip, more(i)))
        for i in shown], right=(0, 2), wrap=3 if heads[1:] else None)  # numbers wrap
    if len(counts) > len(shown):
        print(f"... and {len(counts) - len(shown):,} more distinct tokens, each a row too")
    _say(f"token ids: {ids}", 12)
    return shown


def _seed_text(seed):
    """Write a seed for a view's line, a long one cut short so that lines fit."""
    digits = str(seed)
    return digits if len(digits) <= 20 else (
        f"{digits[:8]}...{digits[-4:]}, {len(digits):,} digits")


# --- the fast paths: the lesson's loops, as the views run them --------------
# Each does what a loop of the lesson does, and a test holds the two equal;
# .ci/bench-vocab holds their speed.

def _heap_merge(parts, rank):
    """Join neighbours as rank_encode's loop does, by a heap: O(n log n), not O(n^2),
    as 10,000 CJK characters are one piece (a second, not minutes)."""
    import heapq  # here, not at the top: only real vocabularies need it
    n = len(parts)  # parts[k] is followed by parts[after[k]]; a joined one is
    after, before = list(range(1, n + 1)), list(range(-1, n))  # None
    pairs = [(rank[a + b], k) for k, (a, b) in enumerate(zip(parts, parts[1:]))
             if a + b in rank]
    heapq.heapify(pairs)
    while pairs:
        best, k = heapq.heappop(pairs)
        j = after[k]  # a pair a join before it changed is no longer there
        if parts[k] is None or j == n or rank.get(parts[k] + parts[j]) != best:
            continue
        parts[k], parts[j], after[k] = parts[k] + parts[j], None, after[j]
        before[after[k]] = k
        for left in (before[k], k):  # the new part's pairs, either side
            right = after[left] if left >= 0 else n
            if right < n and parts[left] + parts[right] in rank:
                heapq.heappush(pairs, (rank[parts[left] + parts[right]], left))
    return [part for part in parts if part is not None]


def _rank_encode(text, ranks, pattern):
    """rank_encode, for checked ranks, by _heap_merge, each distinct piece once."""
    pieces, encoded = split_words(text, pattern), {}
    for piece in dict.fromkeys(pieces):  # a piece always encodes alike: once
        whole = piece.encode("utf-8")
        parts = [whole] if whole in ranks else _heap_merge(
            [bytes([b]) for b in whole], ranks)
        encoded[piece] = [ranks[part] for part in parts]
    return [i for piece in pieces for i in encoded[piece]]


def _sp_encode(text, model):
    """sp_encode, for a checked model, by _heap_merge over the text's one run of characters;
    a word at a time where no piece holds ▁ after a character (Llama 2's, Mistral's)."""
    import re  # here, not at the top: the lesson's view needs no pattern
    if id(model) not in _SP:  # the pieces text can make, each piece's ID, words: once
        rank = {p: -score for p, score, kind in model["pieces"] if kind == 1}
        _SP[id(model)] = (model, rank, {p: i for i, (p, _, _) in enumerate(model["pieces"])},
                          not any(re.search("[^\u2581]\u2581", p) for p in rank))
    _, rank, ids, alone = _SP[id(model)]
    words = re.split("(?<=[^\u2581])(?=\u2581)", _sp_text(text, model)) if alone else [
        _sp_text(text, model)]
    done = {word: [i for part in _heap_merge(list(word), rank) for i in (
        [ids[part]] if part in rank else [ids[f"<0x{b:02X}>"] for b in part.encode()])]
        for word in set(words)}  # each distinct word, joined once
    return [i for word in words for i in done[word]]


def _encoded(text, table, pattern):
    """Encode text by a real vocabulary: the text as spelt, IDs, bytes, pieces (or None)."""
    if pattern is not None:  # ranks, tiktoken's kind
        ids = _rank_encode(text, table, pattern)
        used = set(ids)
        return text, ids, {i: token for token, i in table.items() if i in used}, None
    ids, pieces = _sp_encode(text, table), table["pieces"]  # pieces with ▁, <0xE1>
    return _sp_text(text, table).replace("\u2581", " "), ids, {i: bytes([int(
        pieces[i][0][3:5], 16)]) if pieces[i][2] == 6 else pieces[i][0].replace(
            "\u2581", " ").encode() for i in ids}, {i: pieces[i][0] for i in ids}


_SP = {}  # id of a model: (it, its ranks, its IDs, whether words join alone), once a process


# --- text views ------------------------------------------------------------------
# Each view is one block: its reader, which turns the command line's WORDS and
# options into the view's inputs (or refuses them with one line), then its
# printer, registered by @_view with what it takes, its help and the command
# lines that show it at work (CI runs each on every Python), then its helpers.

View = collections.namedtuple("View", "takes help read show examples draw")
VIEWS = {}  # by flag (None: the lesson's view), in this file's order, as --help lists them
_LESSON = ("WORDS", "--seed", "--d-model", "--padding-idx")
_WORDS = ("WORDS", "--seed", "--d-model")


def _view(flag, takes, help, read, examples, draw=None):
    """Register the printer below it as VIEWS[flag]; draw(inputs, args) gives its --svg."""
    def register(show):
        VIEWS[flag] = View(takes, help, read, show, examples, draw)
        return show
    return register


def _seed_of(args):
    """Return --seed, checked, or the default seed."""
    return _whole("seed", SEED if args["seed"] is None else args["seed"], 0,
                  hint=NEGATIVE_SEED)


def _int_of(word):
    """Read a whole number the way the options are read (int: 1_000 and 007 too)."""
    try:
        return int(word) if len(word) <= MAX_DIGITS else None
    except ValueError:
        return None


def _known(text, vocab):
    """Refuse a text with a word not in vocab: where, a guess at why, what would do."""
    unknown = [(at, word) for at, word in enumerate(text.split()) if word not in vocab]
    for at, word in unknown[:1]:
        if len(vocab) <= len(VOCAB):
            raise ValueError(_unknown(at, word, vocab, _guess(word, vocab))
                             + "; --tokens takes any text")
        import difflib  # here, not at the top: only this mistake needs it
        near = difflib.get_close_matches(word.lower(), vocab, n=4, cutoff=0)
        raise ValueError(f"unknown token {_shown(word)} at position {at}"
                         f"{_guess(word, vocab)}; the corpus has {len(vocab)} words, "
                         f"such as {', '.join(near)}")
    return text


def _guess(word, vocab):
    """Guess why a word is not in vocab: not UTF-8, a look-alike, a capital, a stop, a typo."""
    letters = set("".join(vocab))
    odd = [c for c in word if c not in letters  # not printable ASCII; not
           and not " " <= c <= "~"]  # isprintable(): it moves with Unicode
    if odd and 0xDC80 <= ord(odd[0]) <= 0xDCFF:  # how Python keeps a byte
        return f" (it holds byte {ord(odd[0]) - 0xDC00:#04x}, which is not UTF-8)"
    if odd:  # a Cyrillic о looks just like a Latin o
        called = unicodedata.ucd_3_2_0.name(odd[0], "(no name)")  # frozen
        return (f" (it holds U+{ord(odd[0]):04X} {called}, which no vocabulary word has)")
    import difflib  # here, not at the top: only this mistake needs it
    guess = word.lower().strip(".,;:!?\"'()")  # a capital, a full stop, a typo
    close = [guess] if guess in vocab else difflib.get_close_matches(
        guess, vocab, n=2, cutoff=0.75)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


def _typed(words, view):
    """Read a view's TEXT (or the lesson's): at most MAX_TEXT characters, all UTF-8."""
    text = TEXT if words is None else " ".join(words)
    stray = [(at, c) for at, c in enumerate(text) if "\udc80" <= c <= "\udcff"]
    for at, c in stray[:1]:  # Python keeps such a byte as U+DC80 to U+DCFF
        raise ValueError(f"{view}'s text holds byte {ord(c) - 0xDC00:#04x} at position "
                         f"{at:,}, which is not UTF-8: save or type the text as UTF-8")
    if len(_utf8("text", text)) > MAX_TEXT:
        raise ValueError(f"{view} takes a text of at most {MAX_TEXT:,} characters, got "
                         f"{len(text):,}: it lists every token's ID")
    return text


def _merges_of(args):
    """Return the merges BPE learns from CORPUS, as --merges says (0 or more)."""
    n_merges = BPE_MERGES if args["merges"] is None else args["merges"]
    if n_merges < 0:
        raise ValueError(f"argument --merges: must be 0 or more, got {n_merges}")
    return train_bpe(CORPUS, n_merges)


def _seen(merges):
    """List the token IDs the corpus looks up, in its order."""
    return [i for sentence in CORPUS for i in bpe_encode(sentence, merges)]


def _counts(text, merges, cached):
    """Count the text's tokens under the merges, then each cached vocabulary's (or None)."""
    return [len(bpe_encode(text, merges))] + [len(_rank_encode(text, *cached[name]))
                                              if isinstance(cached.get(name), tuple) else None
                                              for name in VOCABULARIES]


def _d_model(args):
    """Return --d-model, checked, or the default."""
    d_model = D_MODEL if args["d_model"] is None else args["d_model"]
    if not 1 <= d_model <= MAX_D_MODEL:
        raise ValueError(f"argument --d-model: must be 1 to {MAX_D_MODEL:,}, got {d_model}")
    return d_model


def _read_lesson(words, args):
    """Read the text; draw the table as the options say; refuse too many numbers to print."""
    text = _known(TEXT if words is None else " ".join(words), VOCAB)
    d_model, ids = _d_model(args), encode(text)
    per_word = {None: d_model, "--one-hot": len(VOCAB) + 2 * d_model,
                "--learn": d_model}.get(args["view"], 0)  # --one-hot: three rows
    _within(args["view"] or "the lesson's view", len(ids) * per_word,
            f"{len(ids):,} words x {per_word:,} numbers")
    table = make_table(len(VOCAB), d_model, _seed_of(args), args["padding_idx"])
    return text.split(), ids, table


def _lesson_figure(inputs, args):
    """Draw the lesson's table, as the views that take --svg read it."""
    words, _, table = inputs
    return svg_figure(table, " ".join(words), seed=_seed_of(args),
                      padding_idx=_padding_row(args))


def _padding_row(args):
    """Return --padding-idx as the row it names: -1 is the last row, named as such."""
    return None if args["padding_idx"] is None else args["padding_idx"] % len(VOCAB)


def _within(view, numbers, inputs, fewer="fewer words"):
    """Refuse inputs that would have a view work through too many numbers."""
    if numbers > MAX_NUMBERS:
        raise ValueError(f"{view} would work through {numbers:,} numbers ({inputs}), more than "
                         f"{MAX_NUMBERS:,}: give {fewer}, or a smaller --d-model")


@_view(None, _LESSON + ("--svg",), "", _read_lesson, (
    "", "my order is late", "--seed 7 --d-model 8", "<pad> late --padding-idx -1"), _lesson_figure)
def print_lookup(words, ids, table):
    """Print the lesson's view: the IDs, each token's row, the table's shape."""
    _say(f"token ids: {ids}", 12)
    for word, i, row in zip(words, ids, lookup(table, ids)):
        prefix = f"{word:7} -> row {i}: "
        _say(f"{prefix}{row}", len(prefix) + 1)
    print("table shape:", len(table), "x", len(table[0]))


@_view("--table", _LESSON + ("--svg",), "print every row, marking the rows the text "
       "looks up", _read_lesson, ("", "my order order --seed 3 --d-model 6",
                                  "--d-model 16 my order --seed 43", "--seed 43"), _lesson_figure)
def print_table(words, ids, table):
    """Print every row of the table with its ID, marking the rows the text looks up."""
    _say(f"token ids: {ids}", 12)
    where = _lookups(ids, len(table))
    _columns([("id", "token", "row", "looked up")] + [
        (str(i), VOCAB[i], row, _where(where[i], "<- "))
        for i, row in enumerate(table)], wrap=2)
    print("table shape:", len(table), "x", len(table[0]))
    _explain_minus_zero(table)


@_view("--one-hot", _LESSON + ("--svg",), "show that one-hot x table gives the very "
       "rows the lookup reads", _read_lesson, ("", "my --seed 43"), _lesson_figure)
def print_one_hot(words, ids, table):
    """Print each token's one-hot vector, its product with the table, and its row."""
    n_rows, width = len(table), len(table[0])
    _say(f"token ids: {ids}", 12)
    seen = {i: (hot := one_hot(i, n_rows), vecmat(hot, table), lookup(table, [i])[0])
            for i in dict.fromkeys(ids)}  # ID: (one-hot, product, row), once an ID
    for word, i in zip(words, ids):
        labels = ("one-hot", "one-hot x table", f"row {i} by lookup")
        for name, label, vector in zip((word, "", ""), labels, seen[i]):
            _say(f"{name:7} {label:16} {vector}", 26)
    print("product equals lookup for every token:",
          all(product == row for _, product, row in seen.values()))
    _explain_minus_zero([row for _, _, row in seen.values()], product=True)
    _columns([("cost per token", "lookup reads", "one-hot x table multiplies")] + [
        (f"{v:,} x {d:,} table", f"{d:,}", f"{param_count(v, d):,}")
        for v, d in ((n_rows, width), (128_000, 4_096))], right=(1, 2))


def _read_learning(words, args):
    """Read what --learn needs: the lesson's inputs, with at least one token."""
    words, ids, table = _read_lesson(words, args)
    if not ids:
        raise ValueError("--learn needs at least one word to look up")
    return words, ids, table, _padding_row(args)


@_view("--learn", _LESSON, "take one gradient step for the text: only its rows move",
       _read_learning, ("my order order", "--d-model 9 <pad> late --padding-idx 0"))
def print_learning(words, ids, table, padding_idx):
    """Take one gradient step for the text; print which rows moved, and how far."""
    ones = [1.0] * len(table[0])  # the toy loss's d(sum) / d(number), each 1
    lr, grad = 0.1, lookup_backward([ones] * len(ids), ids, len(table), padding_idx)
    after, where = sgd_step(table, grad, lr), _lookups(ids, len(table))
    _say(f"token ids: {ids}", 12)
    print("toy loss: the sum of the looked-up numbers, so each position adds 1 to")
    print(f"the gradient of every number in its row; learning rate {lr}")
    rows = [("id", "token", "looked up", "gradient", "step", "row before the step")]
    for i, (g, old, new) in enumerate(zip(grad, table, after)):
        rows.append((str(i), VOCAB[i], _count(len(where[i]), "time") if where[i]
                     else "-", "0, padding" if i == padding_idx else f"{g[0]} each"
                     if any(g) else "0", f"{-lr * g[0]:.1f}" if any(g) else "0", old))
        rows += [("", "", "", "", "after", new)] * any(g)  # and after, if it moved
    _columns(rows, wrap=5)
    print("rows with no gradient are unchanged, byte for byte:", all(
        repr(new) == repr(old) for new, old, g in zip(after, table, grad) if not any(g)))
    for i, n in enumerate(map(len, where)):
        if n > 1 and i != padding_idx:
            _say(f"{VOCAB[i]}, looked up {n:,} times, gets {n:,} x the gradient: "
                 f"it moves {n:,} times as far", 2)
    _explain_minus_zero(table + [new for new, g in zip(after, grad) if any(g)])


def _read_sizes(words, args):
    """Read --params' sizes: none (the lesson's 128,000 x 4,096), or two numbers."""
    if words is None:
        return 128_000, 4_096
    sizes = [_int_of(word) for word in words]
    if len(sizes) != 2 or None in sizes or not all(1 <= n <= MAX_SIZE for n in sizes):
        raise ValueError(f"argument --params: expected two whole numbers from 1 to {MAX_SIZE:,} "
                         f"(VOCAB_SIZE D_MODEL), got {_short(' '.join(words)) or 'nothing'}")
    return sizes[0], sizes[1]


def _bytes(n):
    """Write a byte count in bytes, kB, MB, GB... (powers of 1,000)."""
    if n < 1000:
        return f"{n} bytes"
    for unit in ("kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"):
        n /= 1000
        if round(n, 1) < 1000 or unit == "YB":  # 999.96 kB would show as 1,000.0 kB
            return f"{n:,.1f} {unit}"


@_view("--params", ("WORDS",), "count a table's parameters; WORDS: VOCAB_SIZE D_MODEL "
       "(default: 128000 4096)", _read_sizes, ("", "50257 768", "50_257 0768"))
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
    print("the output layer scores every token with a vocabulary x d_model table too:")
    _columns([(f"  {name}", "tied: it reads the same table" if TIED[name] else
               f"untied: {param_count(v, d):,} numbers more") for name, v, d in REAL_MODELS])
    print(f"  GPT-2 small in all: {GPT2_TIED_TOTAL:,} parameters tied, "
          f"{GPT2_TIED_TOTAL + param_count(*REAL_MODELS[0][1:]):,} untied")


def _read_seed(words, args):
    """Read the seed, the only input of --train and --context."""
    return (_seed_of(args),)


_TRAINED = {}  # (seed, epochs, ID order): (vocab, table), trained once a process


def _trained(seed, epochs=TRAIN_EPOCHS, order=None):
    """Train on CORPUS, once a process for each seed, epochs and ID order."""
    key = (seed, epochs, order and tuple(order))
    if key not in _TRAINED:  # a page or a notebook that shows the view again waits less
        _TRAINED[key] = train_embeddings(CORPUS, seed, epochs, order)
    return _TRAINED[key]


@_view("--train", ("--seed",), "train word vectors: refund ~ return, before and after",
       _read_seed, ("", "--seed 7"))
def print_training(seed):
    """Print refund's similarities before and after training, then other ID orders."""
    vocab, after = _trained(seed)
    _, before = _trained(seed, epochs=0)
    print(f"skip-gram with negative sampling on {len(CORPUS)} sentences: {len(vocab)} words,")
    _say(f"{TRAIN_D_MODEL} numbers per word, {TRAIN_EPOCHS} epochs, seed {_seed_text(seed)}", 2)
    _columns([("cosine similarity", "IDs", "before", "after")] + [
        (f"refund ~ {other}", f"{vocab.index('refund')}, {vocab.index(other)}",
         *(f"{cosine(*lookup(table, encode(f'refund {other}', vocab))):.3f}"
           for table in (before, after)))
        for other in ("return", "monsoon")], right=(1, 2, 3))
    for when, table in (("before", before), ("after", after)):
        print(f"nearest to refund {when}:".ljust(26), ", ".join(
            f"{word} {score:.3f}" for word, score in nearest("refund", vocab, table)))
    print()
    _print_id_orders(seed, vocab, after)


def _print_id_orders(seed, vocab, table):
    """Train again with the words numbered two other ways; print refund's neighbours."""
    print("an ID is only a label: number the words another way and train again")
    orders = [("alphabetical", vocab, table), ("reversed", vocab[::-1], None),
              ("shuffled", random.Random(seed).sample(vocab, len(vocab)), None)]
    found = [nearest("refund", order, trained or _trained(seed, order=order)[1], k=2)
             for _, order, trained in orders]  # the alphabetical table is trained already
    _columns([("ID order", "refund", "return", "monsoon", "nearest to refund after")]
             + [(name, *(str(order.index(w)) for w in ("refund", "return", "monsoon")),
                 ", ".join(f"{word} {score:.3f}" for word, score in best))
                for (name, order, _), best in zip(orders, found)], right=(1, 2, 3))
    print("return is refund's nearest word in all three:",
          all(best[0][0] == "return" for best in found))


@_view("--context", ("--seed",), "show attention giving bank a new vector in each of "
       "two sentences", _read_seed, ("", "--seed 40"))
def print_context(seed):
    """Print bank's row before and after attention, in two sentences of two senses."""
    vocab, table = _trained(seed)
    row = dict(zip(vocab, table))
    sentences = ["we walked along the river bank", "i opened a bank account"]
    rows = [lookup(table, encode(s, vocab)) for s in sentences]  # looked up once
    at = [s.split().index("bank") for s in sentences]
    inputs = [looked_up[k] for looked_up, k in zip(rows, at)]
    outputs = [attend(looked_up)[k] for looked_up, k in zip(rows, at)]
    _say(f'"bank" has one row in the trained table (seed {_seed_text(seed)}), '
         "whatever the sentence;", 0)
    print("attend mixes in the words around it, so each sentence gives it a new one")
    leanings = [(label, cosine(vector, row["river"]), cosine(vector, row["account"]))
                for label, vector in [("input row, either sentence", row["bank"])] +
                [(f'in "{s}"', out) for s, out in zip(sentences, outputs)]]
    _columns([("cosine of bank's vector with", "river", "account", "difference")] + [
        (label, f"{r:.3f}", f"{a:.3f}", f"{r - a:+.3f}") for label, r, a in leanings],
        right=(1, 2, 3))
    print("the input row is the same in both sentences:", inputs[0] == inputs[1])
    print("the two outputs differ:", outputs[0] != outputs[1])


def _read_query(words, args):
    """Read --search's query: words of the training corpus, at most MAX_QUERY."""
    vocab = sorted({word for text in CORPUS for word in text.split()})
    query = _known(TEXT if words is None else " ".join(words), vocab)
    ids = encode(query, vocab)
    if not 1 <= len(ids) <= MAX_QUERY:
        raise ValueError(f"--search takes 1 to {MAX_QUERY:,} words, got {len(ids):,}: "
                         "attention compares every pair of them")
    return query, _seed_of(args)


@_view("--search", ("WORDS", "--seed"), "rank the training sentences by sentence "
       "vector; WORDS: a query, in CORPUS's 56 words", _read_query,
       ("", "please return the shoes --seed 7"))
def print_search(query, seed):
    """Print the query's token and sentence vectors, then the corpus's best matches."""
    vocab, table = _trained(seed)
    n = len(query.split())
    _say(f'query "{query}": {_count(n, "token")}, so {_count(n, "token vector")} '
         f"of {TRAIN_D_MODEL} numbers,", 2)
    _say(f"pooled into 1 sentence vector of {TRAIN_D_MODEL} numbers "
         f"(trained, seed {_seed_text(seed)})", 2)
    print(f"the 5 of the corpus's {len(CORPUS)} sentences nearest to it, by cosine:")
    for sentence, score in search(query, CORPUS, vocab, table, k=5):
        print(f"  {score:.3f}  {sentence}")


def _read_positions(words, args):
    """Read what --positions needs: the lesson's inputs, and a position table."""
    words, ids, table = _read_lesson(words, args)
    if not 1 <= len(ids) <= N_POSITIONS:
        raise ValueError(f"--positions takes 1 to {N_POSITIONS} words, got {len(ids)}: the "
                         f"position table has no row for position {N_POSITIONS}, as GPT-2 has "
                         f"none past {GPT2_POSITIONS - 1:,}")
    n, d_model, seed = len(ids), len(table[0]), _seed_of(args)
    _within("--positions", (4 * n * n + 10 * n) * d_model, f"attention 4 times over {n} "
            f"words x {n} words, and 10 rows a word to show, x {d_model:,} numbers")
    # the position table is one more random table, with a seed of its own
    return words, ids, table, make_table(N_POSITIONS, d_model, seed + 1), seed


@_view("--positions", _WORDS, "add position rows to token rows; show what order does",
       _read_positions, ("", "my order order", "refund is late --d-model 8 --seed 5"))
def print_positions(words, ids, table, positions, seed):
    """Print each token's input: its row plus its position's; then what order does."""
    inputs = embed(ids, table, positions)
    _say(f"token ids: {ids}; position table: {N_POSITIONS} x {len(table[0])}, "
         f"random (seed {_seed_text(seed + 1)}); GPT-2 small learns one of "
         f"{GPT2_POSITIONS:,} x {REAL_MODELS[0][2]} = "
         f"{param_count(GPT2_POSITIONS, REAL_MODELS[0][2]):,} numbers", 2)
    for position, (word, i, total) in enumerate(zip(words, ids, inputs)):
        _columns([(f"{position:<3} {word:7}", "token row", table[i]),
                  ("", f"+ position {position}", positions[position]),
                  ("", "= input", total)], wrap=2)
    _explain_minus_zero([table[i] for i in ids] + positions[:len(ids)] + inputs)
    _print_repeats(words, ids, inputs)
    _print_order(ids, table, positions, seed)


def _print_repeats(words, ids, inputs):
    """Say, for a token that comes twice, that it gets one row but two inputs."""
    for i in sorted(set(ids)):
        at = [position for position, j in enumerate(ids) if j == i]
        if len(at) > 1:
            different = len({tuple(inputs[k]) for k in at}) == len(at)
            _say(f"{words[at[0]]} at positions {', '.join(map(str, at))}: one token "
                 f"row, a different input at each: {different}", 2)


def _print_order(ids, table, positions, seed):
    """Show attention blind to order without positions, and seeing it with them."""
    back = ids[::-1]  # the text reversed: token k comes back at position len - 1 - k
    plain = [attend(lookup(table, order)) for order in (ids, back)]
    placed = [attend(embed(order, table, positions)) for order in (ids, back)]
    print("attend on the text and on its reversal gives each token")
    print("  without positions, the very same vector:", plain[0] == plain[1][::-1])
    if ids == back:  # one word, or "my order my": reversed, the same text
        print("  with positions added: the text reads the same reversed, so")
        print("  there is no other order to tell apart (give two other words)")
    else:
        print("  with positions added, the same vector:", placed[0] == placed[1][::-1])
    words = "we walked along the river bank".split()  # a sense all neighbours
    vocab = sorted(set(words))
    table = make_table(len(vocab), len(table[0]), seed)  # any table will do
    forth, back = (attend(lookup(table, encode(" ".join(order), vocab)))
                   for order in (words, words[::-1]))
    print(f'and "bank" in "{" ".join(words)}" and reversed (a random table):')
    print("  without positions, the very same bytes:", repr(forth[-1]) == repr(back[0]))


def _read_rope(words, args):
    """Read --rope's one input: a word's row (refund's, by default), of an even --d-model."""
    _, ids, table = _read_lesson(words, args)
    if len(ids) != 1 and words is not None or len(table[0]) % 2:
        raise ValueError(f"--rope shows one word's row, of an even --d-model, as sines "
                         f"and cosines, and RoPE's turns, come in pairs; got "
                         f"{_count(len(ids), 'word')} and {len(table[0])}")
    return (table[ids[0]],)


@_view("--rope", _WORDS, "positions computed, not learned: sinusoids, and RoPE's "
       "scores", _read_rope, ("", "late --d-model 8 --seed 5"))
def print_rope(row):
    """Print the sinusoids' shift rule and sizes, then RoPE's scores: how far, not where."""
    d = len(row)
    table, turns = sinusoidal(104, 16), {k: rotation(k, 16) for k in (1, 2, 3, 4)}
    error = max(abs(a - b) for k, turn in turns.items() for pos in range(100)
                for a, b in zip(vecmat(table[pos], turn), table[pos + k]))
    print("sinusoidal positions (d = 16): row pos + k = row pos x R_k, for every")
    print(f"  pos < 100 and k = 1 to 4, to within 1e-12: {error < 1e-12}")
    norm = math.sqrt(dot(row, row))
    print(f"sizes: a token row {norm:.2f}, or {norm * math.sqrt(d):.2f} scaled by "
          f"sqrt(d_model); a sinusoidal row {math.sqrt(d / 2):.2f}")
    # Gemma: Hugging Face's GemmaModel scales token rows by hidden_size ** 0.5;
    # its report, arXiv:2403.08295, adds no position rows but RoPE in each layer
    print("  the original Transformer scales token rows by sqrt(d_model) before")
    print("  adding positions; Gemma scales them too, but adds no position rows")
    print("  (it uses RoPE); GPT-2 and Llama do not scale them")
    q, k, base = row, row[::-1], LLAMA3_ROPE_BASE
    pairs = ((5, 3), (12, 10), (102, 100))
    scores = ", ".join(f"{dot(rope(q, m, base), rope(k, n, base)):.6f}" for m, n in pairs)
    print(f"RoPE, as in Llama 3 (base {base:,}), turns queries and keys inside")
    print("  attention and adds nothing to the input rows. rope(q, m) . rope(k, n)")
    print(f"  at m, n = {'; '.join(f'{m}, {n}' for m, n in pairs)}: {scores}")


BATCH = "refund my order, my order is late"  # --batch's texts, by default


def _read_batch(words, args):
    """Read --batch's texts, split at commas; a table with a zero <pad> row; positions."""
    texts = [text.strip() for text in (BATCH if words is None else " ".join(words)).split(",")]
    if not 2 <= len(texts) <= MAX_BATCH or not all(texts):  # no words: none, not BATCH
        raise ValueError(f"--batch takes 2 to {MAX_BATCH:,} texts, split by commas, as "
                         f"in: {BATCH}; got {_count(len(texts), 'text') if any(texts) else 'none'}"
                         + " (one of them empty)" * (len(texts) > 1 and not all(texts)))
    batch = [encode(_known(text, VOCAB)) for text in texts]
    width, seed, d_model = max(map(len, batch)), _seed_of(args), _d_model(args)
    if width > N_POSITIONS:
        raise ValueError(f"--batch takes texts of at most {N_POSITIONS} words, as the position "
                         f"table has {N_POSITIONS} rows; got {width}")
    _within("--batch", 6 * len(batch) * (width + 1) * width * d_model,  # 6 runs
            f"attention 6 times over {len(batch):,} texts of {width} tokens x "
            f"{d_model:,} numbers", "fewer texts")
    return (texts, batch, make_table(len(VOCAB), d_model, seed, padding_idx=0),
            make_table(N_POSITIONS, d_model, seed + 1), seed)


@_view("--batch", _WORDS, "pad texts, split by commas, into one batch; show that the "
       "mask, and positions from it, change no token's vector", _read_batch,
       ("", "late, my order is late --seed 7"))
def print_batch(texts, batch, table, positions, seed):
    """Pad the texts both ways; print IDs, masks, and whether attention keeps each vector."""
    right, left = (pad_batch(batch, side=side) for side in ("right", "left"))
    _say(f"{_count(len(texts), 'text')}, padded with <pad> (ID 0) to "
         f"{_count(len(right[0][0]), 'token')}; mask: 1 a token, 0 a pad", 2)
    _columns([("text", "right-padded", "mask", "left-padded", "mask")] + [
        (_quoted(text), *map(str, row)) for text, *row in
        zip(texts, right[0], right[1], left[0], left[1])])
    alone = [attend(embed(ids, table, positions)) for ids in batch]
    _say(f"each token's vector after attention, against its text's alone (a "
         f"random table and learned positions, seed {_seed_text(seed + 1)}):", 2)
    _columns([(f"  {how}:", _padded(*pads, table, positions, alone, masked, ours))
              for how, pads, masked, ours in [
                  ("right padding, with the mask", right, True, False),
                  ("left padding, positions 0 on, with the mask", left, True, False),
                  ("left padding, positions from the mask", left, True, True),
                  ("no mask, right padding", right, False, False),
                  ("no mask, left padding, positions from the mask", left, False, True)]])
    print("so: pad on the right, or number positions from the mask, as Hugging")
    print("Face's generate does for left padding; and always pass the mask")


def _padded(batch, masks, table, positions, alone, masked, from_mask):
    """Say whether each token's vector after attention, padded, is its vector alone."""
    got = []
    for ids, mask in zip(batch, masks):
        rows = [positions[p] for p in position_ids(mask)] if from_mask else positions
        inputs = embed(ids, table, rows)
        out = masked_attend(inputs, mask) if masked else attend(inputs)
        got.append([vector for vector, real in zip(out, mask) if real])
    worst = max(abs(a - b) for ours, theirs in zip(got, alone)
                for u, v in zip(ours, theirs) for a, b in zip(u, v))
    return "the same bytes: True" if repr(got) == repr(alone) else (f"False, by up to {worst:.3g}")


def _read_tokens(words, args):
    """Read --tokens: the text; CORPUS's merges; a random table, or --vocab's."""
    text, merges = _typed(words, "--tokens"), _merges_of(args)
    moot = [flag for flag in ("--seed", "--d-model") if args[_dest(flag)] is not None]
    if moot and args["vocab"] is not None:
        raise ValueError(f"--tokens --vocab shows no rows, so it takes no {' or '.join(moot)}")
    if args["vocab"] is not None:
        return text, merges, None, None, (_vocabulary(args["vocab"]), _cached_ones())
    seed, d_model, rows = _seed_of(args), _d_model(args), 256 + len(merges)
    tokens = len(bpe_encode(text, merges)) + len(bpe_encode(" " + text, merges))
    _within("--tokens", (rows + tokens) * d_model, f"a table of {rows} rows, and {tokens:,} "
            f"tokens to show, x {d_model:,} numbers", "a shorter text, fewer --merges")
    return text, merges, make_table(rows, d_model, seed), seed, None


@_view("--tokens", ("TEXT", "--merges", "--seed", "--d-model", "--vocab"), "split TEXT into "
       "byte-level BPE tokens learned from CORPUS, or a real vocabulary's (--vocab); show "
       "each as text, with its bytes and row", _read_tokens, ("", "refund my parcel --merges "
                                                             "50", "monsoon rain 42 times "
                                                             "--d-model 2", "river --merges 0"))
def print_tokens(text, merges, table, seed, real):
    """Print the text cut into BPE tokens; each distinct one's bytes and row; the IDs."""
    if real is not None:
        return _print_real(text, merges, *real)
    vocab, ids = token_bytes(merges), bpe_encode(text, merges)
    seen = collections.Counter(_seen(merges))
    _say(f"byte-level BPE: {len(vocab):,} tokens, 256 bytes and "
         f"{_count(len(merges), 'merge')} learned from the corpus", 2)
    shown = _print_cut(text, ids, vocab, (f"row of a {len(vocab)} x {len(table[0])} table "
                                          f"(seed {_seed_text(seed)})", "seen in training"),
                       lambda i: (table[i], _count(seen[i], "time") if seen[i] else "never"))
    _explain_minus_zero([table[i] for i in shown])
    twin = bpe_encode(text[1:] if text.startswith(" ") else " " + text, merges)
    twin = twin if len(str(twin)) < 30 else _count(len(twin), "token")  # or how many
    _say(("without its first space" if text.startswith(" ") else "with a space before it, as "
          "inside a sentence") + f": {twin}", 2)
    found = [vocab[i] for i in dict.fromkeys(ids) if not seen[i]]
    _say(f"the corpus never looks up {len(found)} of these rows, so an untied table's training "
         f"never moves {'it' if len(found) == 1 else 'them'}: {', '.join(map(repr, found[:5]))}"
         + ", ..." * (len(found) > 5) + " (--bpe says more)" if found else "the corpus looks up "
         "every one of these rows (--bpe shows the rows it never does)", 2)


def _print_real(text, merges, vocabulary, cached):
    """Print a real vocabulary's tokens of the text, then what each vocabulary takes."""
    name, table, pattern, size, special, path = vocabulary
    seen, ids, vocab, written = _encoded(text, table, pattern)
    unused, letters = 0 if written else size - len(table) - special, gpt2_bytes()
    _say(f"{name}: {size:,} IDs: 256 bytes, {size - 256 - special - unused:,} "
         f"{'pieces' if written else 'merges'}, {special} special" + f" and {unused} unused"
         * bool(unused) + f"; read from {_home(path)}; a table of {size:,} x "
         f"{REAL_MODELS[2][2]:,} = {size * REAL_MODELS[2][2]:,} numbers", 2)  # Llama 3 8B's
    _print_cut(seen, ids, vocab, ("as GPT-2 writes it",) * (pattern == GPT2), lambda i: (
        "".join(letters[b] for b in vocab[i]),) * (pattern == GPT2), written)
    if "<|" in text and "|>" in text:  # as <|endoftext|>: ordinary text, here
        _say("a special token typed as text is ordinary tokens: its ID comes only from code", 2)
    _say("this text in tokens: " + ", ".join(
        f"{n:,} under {other}" if n is not None else f"{other} not downloaded" for other, n
        in zip([f"the corpus's {len(merges)} merges", *VOCABULARIES],
               _counts(text, merges, cached))), 2)


def _read_trace(words, args):
    """Read --trace: a word (refund by default), the corpus's merges, --vocab's if given."""
    word = _typed(["refund"] if words is None else words, "--trace")
    if len(word) > MAX_TRACE:  # a line a join, each as long as the word
        raise ValueError(f"--trace takes a text of at most {MAX_TRACE} characters, got "
                         f"{len(word):,}: it prints each join; --tokens takes longer ones")
    real = None if args["vocab"] is None else _vocabulary(args["vocab"])
    return word, _merges_of(args), real


@_view("--trace", ("TEXT", "--merges", "--vocab"), "show TEXT becoming its tokens, a join "
       "at a time: each pair joined, its rank (or score), the parts after", _read_trace,
       ("", "lately --merges 30", "tokenization"))
def print_trace(word, merges, real):
    """Print each piece's joins, as the lesson's loops make them, then its tokens."""
    name, table, pattern = real[:3] if real else ("the corpus's merges", {
        token: i for i, token in enumerate(token_bytes(merges))}, GPT2)
    score = pattern is None  # SentencePiece's: the best score, the text one run
    rank = {p: -s for p, s, kind in table["pieces"] if kind == 1} if score else table
    pieces = [_sp_text(word, table)] if score else [
        piece.encode("utf-8") for piece in split_words(word, pattern)]
    _say(f"{_quoted(word)} under {name}: {_count(len(pieces), 'piece')}, each joined from its "
         f"{'characters' if score else 'bytes'}, the pair of the best "
         f"{'score' if score else 'rank'} first", 2)
    for parts in (list(piece) if score else [bytes([b]) for b in piece] for piece in pieces):
        print("  " + "|".join(map(_shown_part, parts)))
        while pairs := [(rank[a + b], k) for k, (a, b) in enumerate(zip(parts, parts[1:]))
                        if a + b in rank]:
            best, k = min(pairs)
            joined = parts[:k] + [parts[k] + parts[k + 1]] + parts[k + 2:]
            _say(f"  {'score' if score else 'rank'} {-best if score else best:<9,} "
                 f"{_shown_part(parts[k])} + {_shown_part(parts[k + 1])} -> "
                 + "|".join(map(_shown_part, joined)), 4)
            parts[:] = joined
    seen, ids, vocab, written = _encoded(word, table, pattern)
    _print_cut(seen, ids, vocab, (), lambda i: (), written)


def _shown_part(part):
    """Write a part of a trace: text as text, a space ␣, a stray byte \\xe0."""
    return (part.decode("utf-8", "backslashreplace") if isinstance(part, bytes) else part
            ).replace(" ", "\u2423")


def _read_bpe(words, args):
    """Read --bpe: the corpus's merges, and a random table, a row a token."""
    merges, seed, d_model = _merges_of(args), _seed_of(args), _d_model(args)
    rows = 256 + len(merges)
    _within("--bpe", 5 * rows * d_model, f"5 tables of {rows} rows x "
            f"{d_model:,} numbers", "fewer --merges")
    return merges, make_table(rows, d_model, seed)


@_view("--bpe", ("--merges", "--seed", "--d-model"), "what the merges do to the table: "
       "rows no training touches, more merges, no <unk>", _read_bpe,
       ("", "--merges 0", "--merges 20 --d-model 2 --seed 3"))
def print_bpe(merges, table):
    """Print what merges do to the table: unused rows, lengths, <unk>, special tokens."""
    vocab, seen = token_bytes(merges), _seen(merges)
    unused = sorted(set(range(len(vocab))) - set(seen))
    merged = [vocab[i] for i in unused if i >= 256]
    _say(f"byte-level BPE learned from the corpus's {len(CORPUS)} sentences: "
         f"{_count(len(merges), 'merge')}, {len(vocab):,} rows", 2)
    # rows training hardly touches: GPT-2's "SolidGoldMagikarp" (Rumbelow and
    # Watkins, "SolidGoldMagikarp (plus, prompt generation)", LessWrong, 2023)
    _say(f"the corpus looks up {len(vocab) - len(unused)} of the {len(vocab)} "
         f"rows; an untied table's training never moves the other "
         f"{len(unused)}: {_count(len(unused) - len(merged), 'single byte')} and "
         f"{_count(len(merged), 'merge')} on the way to longer tokens", 2)
    if merged:
        longest = sorted(merged, key=len, reverse=True)[:3]
        _say(f"  such as {', '.join(map(repr, longest))}: GPT-2's glitch tokens, in miniature", 4)
    _print_merges(train_bpe(CORPUS, 10 ** 6))
    _print_unknown(merges)
    _print_untouched(table, seen, unused)


def _print_merges(full):
    """Show more merges making a bigger table and shorter texts."""
    steps = sorted({0, 50, 100, len(full)} & set(range(len(full) + 1)))
    _columns([("merges", "tokens in the corpus", "rows in the table", "")] + [
        (str(k), f"{sum(len(bpe_encode(s, full[:k])) for s in CORPUS):,}",
         f"{256 + k:,}", "no pair left: training stops" * (k == len(full)))
        for k in steps], right=(0, 1, 2))


def _print_unknown(merges):
    """Show a word-level tokenizer with <unk> losing text, where BPE keeps it."""
    vocab, texts = VOCAB + ["<unk>"], ("refund my parcel", "refund my shoes")
    unk = [[vocab.index(w) if w in vocab else vocab.index("<unk>")
            for w in text.split()] for text in texts]
    print(f'a word-level vocabulary with <unk>: "{texts[0]}" and "{texts[1]}"')
    print(f"  are both {unk[0]}: one list for two texts, so <unk> loses text;")
    print("  BPE spells an unseen word in smaller pieces, down to bytes:")
    for text in texts:
        _say(f"  {bpe_encode(text, merges)}", 3)


def _print_untouched(table, seen, unused):
    """Show the unused rows unchanged by a step, but for a tied head."""
    grad = lookup_backward([[1.0] * len(table[0])] * len(seen), seen, len(table))
    after = sgd_step(table, grad, 0.1)
    print(f"after a step of training on the corpus, its {len(unused)} unused rows")
    print("  are unchanged, byte for byte:", all(repr(after[i]) == repr(table[i]) for i in unused))
    width = len(table[0])  # a hidden vector whose scores, each a row's mean,
    hidden = [1 / width] * width  # stay within 1 of 0: no p_j underflows
    tied = [[g + h for g, h in zip(row, head)] for row, head in  # a tied head
            zip(grad, head_gradient(hidden, table, seen[1]))]  # reads the table
    print("with a tied output head (logits read the same table), the step moves")
    print("  every row, unused or not:", all(any(row) for row in tied))
    print(f"special tokens come from code: no text encodes to ID {len(table)}, the next")
    print(f"  after the {'last merge' if len(table) > 256 else '256 bytes'} "
          f"(the corpus's highest is {max(seen)})")


# One request in 12 languages, tokembed's own translations: what it costs in
# each vocabulary's tokens (--languages)
LANGUAGES = [
    ("English", "Where is my order? I would like a refund."),
    ("German", "Wo ist meine Bestellung? Ich hätte gern eine Rückerstattung."),
    ("French", "Où est ma commande ? Je voudrais un remboursement."),
    ("Spanish", "¿Dónde está mi pedido? Quisiera un reembolso."),
    ("Russian", "Где мой заказ? Я хотел бы вернуть деньги."),
    ("Greek", "Πού είναι η παραγγελία μου; Θα ήθελα επιστροφή χρημάτων."),
    ("Hindi", "मेरा ऑर्डर कहाँ है? मुझे रिफ़ंड चाहिए।"),
    ("Arabic", "أين طلبي؟ أود استرداد أموالي."),
    ("Chinese", "我的订单在哪里？我想要退款。"),
    ("Japanese", "注文した商品はどこですか？返金をお願いします。"),
    ("Korean", "제 주문은 어디에 있나요? 환불을 받고 싶습니다."),
    ("Thai", "คำสั่งซื้อของฉันอยู่ที่ไหน ฉันต้องการขอคืนเงิน"),
]


def _read_languages(words, args):
    """Read --languages: the request in each language, and TEXT, in bytes and in tokens."""
    merges, real = _merges_of(args), _cached_ones()
    texts = LANGUAGES + [("yours *", _typed(words, "--languages"))] * (words is not None)
    return [f"{len(merges)} merges", *VOCABULARIES], [
        (name, text, [len(text.encode("utf-8")), *_counts(text, merges, real)])
        for name, text in texts], merges, real


@_view("--languages", ("TEXT", "--merges", "--svg"), "one request in 12 languages, and "
       "TEXT if given: its tokens in each vocabulary, and each vocabulary's table",
       _read_languages, ("", "--merges 20", "Où est ma commande ?"),
       lambda inputs, args: _languages_chart(*inputs[:2]))
def print_languages(names, rows, merges, real):
    """Print one request's tokens in each language and vocabulary, then each's rows."""
    _say(f'"{LANGUAGES[0][1]}" in {len(LANGUAGES)} languages (tokembed\'s own translations):'
         " characters, then UTF-8 bytes and tokens, each also as a multiple of English's", 2)
    _columns([("language", "chars", "bytes", *names)] + [
        (language, f"{len(text):,}", *(f"{n:,} {n / b:.1f}x" if n is not None else "-"
                                       for n, b in zip(counts, rows[0][2])))
        for language, text, counts in rows], right=range(1, 3 + len(names)))
    if rows[-1][0] == "yours *":
        _say(f"* yours: {_quoted(rows[-1][1])}", 2)
        _newer(rows[-1][1])
    name, _, width = REAL_MODELS[2]  # Llama 3 8B
    print(f"a token is a row of the embedding table; at d_model {width:,} ({name}'s):")
    _columns([(f"  {what}", f"{size:,} tokens", f"{param_count(size, width) / 1e6:,.1f} M "
               "numbers", note) for what, size, note in [
                   (names[0], 256 + len(merges), "the corpus")] + [
                   (name, v.size, v.model + (": damaged" if isinstance(real.get(name), str)
                                             else ": not downloaded" * (name not in real)))
                   for name, v in VOCABULARIES.items()]], right=(1, 2))
    print("more tokens in the table, fewer in each text: every vocabulary trades one for")
    print("the other, and text in other scripts pays most for a small one")
    for why in filter(lambda found: isinstance(found, str), real.values()):
        _say(why, 2)  # a damaged file: which, and what to do
    if len(real) < len(VOCABULARIES):
        _say("a vocabulary not downloaded shows -: python3 tokembed.py --tokens --vocab "
             f"NAME fetches it once, into {_home(os.path.dirname(_cached(None)))}", 2)
    print("the 12 sentences: python3 tokembed.py --copy LANGUAGES")


def _languages_chart(names, rows):
    """Draw each language's tokens as a multiple of English's, a bar a vocabulary counted."""
    counted = [k for k in range(1, len(names) + 1) if rows[0][2][k] is not None]
    x, unit, bar, group = 100, 60, 9, 9 * len(counted) + 8  # px: 1x is 60 px
    ratios = [[counts[k] / rows[0][2][k] for k in counted] for _, _, counts in rows]
    width, height = round(x + unit * max(map(max, ratios)) + 160), 90 + group * len(rows)
    fills = [colour((-1) ** j * (1 - j // 2 * 0.4)) for j in range(len(counted))]  # by turns
    title = "Tokens for one request, as a multiple of English's"
    desc = " ".join(f"{row[0]}: " + ", ".join(f"{names[k - 1]} {r:.1f}x" for k, r in zip(
        counted, ratio)) + "." for row, ratio in zip(rows, ratios))
    parts = [_svg_open(width, height, title, desc, _figure_key(title + desc))]
    for y, (language, _, _), ratio in zip(range(60, height, group), rows, ratios):
        parts += [_tag("text", language, x=x - 8, y=y + group // 2, text_anchor="end")] + [
            _tag("rect", x=x, y=y + j * bar, width=round(unit * r, 1), height=bar - 1,
                 fill=fill, stroke="#333333", stroke_width=0.5)
            for j, (r, fill) in enumerate(zip(ratio, fills))]
    parts += [_tag("line", x1=x + unit * m, y1=50, x2=x + unit * m, y2=height - 25,
                   stroke="#333333", stroke_dasharray="4 3" if m == 1 else "1 5")
              for m in range(1, int(max(map(max, ratios))) + 1)]
    parts += [_tag("text", f"{m}x", x=x + unit * m, y=height - 8, text_anchor="middle")
              for m in range(1, int(max(map(max, ratios))) + 1)]
    for j, (k, fill) in enumerate(zip(counted, fills)):  # the key: a swatch, a name
        parts += [_tag("rect", x=width - 150, y=52 + 20 * j, width=14, height=14, fill=fill,
                       stroke="#333333"), _tag("text", names[k - 1], x=width - 130, y=64 + 20 * j)]
    return "\n".join(parts + ["</svg>", ""])


# --- the figure: the table as a heatmap, in SVG ------------------------------

CELL_W, CELL_H = 56, 28  # a cell
ROW_GAP = 6  # keeps two outlined rows apart
CHAR_W = 8  # a 14 px DejaVu Sans character is about 7.5 px wide
MARGIN, LINE_H = 20, 22
TITLE_Y, NOTES_Y = 34, 62  # baselines: the title, then the first note under it
HEADINGS_H = 24  # room above the rows for their column headings
TEXT_DROP = 5  # a 14 px text's baseline sits this far below its row's middle
ARROW_W, ID_W = 48, 40
LEGEND_W, LEGEND_H = 240, 100  # the colour scale, and the room for it below
TEXT_MAX_W = 900  # a longer line under the title wraps


class SVG(str):
    """An SVG document: a str everywhere, and a picture in Jupyter."""

    def _repr_svg_(self):  # IPython calls this to draw the object
        return str(self)


def colour(value):
    """Map -1..1 onto a purple-white-orange scale, safe for colour-blind eyes.

    >>> colour(-1), colour(0), colour(0.5), colour(1)
    ('#542788', '#f7f7f7', '#d5a87e', '#b35806')
    """
    value = _number("value", value)
    # ColorBrewer's PuOr ends, rated colour-blind safe at colorbrewer2.org
    end = (0x54, 0x27, 0x88) if value < 0 else (0xB3, 0x58, 0x06)
    t = min(abs(value), 1.0)
    return "#" + "".join(f"{round(0xF7 + t * (e - 0xF7)):02x}" for e in end)


def svg_figure(table, text, vocab=VOCAB, seed=None, padding_idx=None):
    """Draw the table as a heatmap, with an arrow to each row text looks up.

    >>> figure = svg_figure([[0.5, -1.0], [0.0, 1.0]], "b a b", ["a", "b"])
    >>> figure.count('class="cell"'), figure.count('class="lookup"')
    (4, 2)
    """
    vocab = _vocab(vocab)
    text = _text("text", text, vocab)
    table = _finite("table", _rows("table", table, len(vocab)), rows=True)
    padding_idx = padding_idx if padding_idx is None else _whole(
        "padding_idx", padding_idx, -len(table), len(table) - 1)
    if max(len(table), len(table[0])) > FIGURE_MAX:
        raise ValueError(f"a figure shows at most {FIGURE_MAX} rows of "
                         f"{FIGURE_MAX} numbers, got {len(table):,} x "
                         f"{len(table[0]):,}: any more would be too small to "
                         "read")
    if not all(word.isprintable() for word in vocab):
        raise ValueError(f"vocab holds "
                         f"{[w for w in vocab if not w.isprintable()][0]!r}; "
                         "a figure's labels must be printable")
    if padding_idx is not None and any(table[padding_idx]):
        raise ValueError(f"padding_idx {padding_idx} names a row that is not "
                         "all zeros, as a padding row is: draw the table with "
                         "that padding_idx")
    seed = seed if seed is None else _whole("seed", seed, 0,
                                            hint=NEGATIVE_SEED)
    padding_row = None if padding_idx is None else padding_idx % len(table)
    return _draw(table, text, vocab, seed, padding_row)  # -1: the last row


def _draw(table, text, vocab, seed, padding_row):
    """Draw a checked table: notes on top, then its rows, then the scale."""
    ids = [vocab.index(word) for word in text.split()]
    where = _lookups(ids, len(table))
    labels = {i: _where(where[i]) for i in sorted(set(ids))}  # "position 1"
    subtitle = (f'"{" ".join(text.split())}" \u2192 token IDs {ids} \u2192 '
                "one row of the table per token.")
    x = _figure_columns(labels.values(), vocab, len(table[0]), subtitle)
    notes = _figure_notes(subtitle, seed, padding_row, x["width"])
    top = NOTES_Y + LINE_H * len(notes) + HEADINGS_H  # the first row
    height = top + len(table) * (CELL_H + ROW_GAP) + LEGEND_H
    title = (f"Embedding table: {_count(len(table), 'token')} x "
             f"{_count(len(table[0]), 'number')}")
    desc = f"{subtitle} Looked-up rows are outlined. " + " ".join(
        f"Row {i}, {vocab[i]}: {', '.join(map(str, row))}."
        for i, row in enumerate(table))
    key = _figure_key(title + desc)
    return SVG("\n".join([
        _svg_open(x["width"], height, title, desc, key),
        *(_tag("text", note, x=MARGIN, y=NOTES_Y + LINE_H * k)
          for k, note in enumerate(notes)),
        *_svg_rows(table, vocab, labels, x, top, key),
        *_svg_legend(x["cells"], height - LEGEND_H + 30, key), "</svg>", ""]))


def _figure_columns(labels, vocab, d_model, subtitle):
    """Place the columns: labels, arrows, tokens, IDs, cells; and the width."""
    label_end = MARGIN + CHAR_W * max(map(len, ["in the text", *labels]))
    token_end = label_end + ARROW_W + CHAR_W * max(map(len, vocab))
    cells = token_end + ID_W
    width = max(cells + max(d_model * CELL_W, LEGEND_W + 80),
                min(MARGIN + CHAR_W * len(subtitle), TEXT_MAX_W)) + MARGIN
    return {"label": label_end, "token": token_end, "id": cells - 8,
            "cells": cells, "width": width}


def _figure_notes(subtitle, seed, padding_row, width):
    """Write the lines under the title: the text and its IDs, then the seed."""
    import textwrap  # here, not at the top: only the figure needs it
    drawn = [] if seed is None else [f"Random numbers, seed {seed}."]
    if padding_row is not None:
        drawn.append(f"Row {padding_row} is the padding row: all zeros.")
    wrap = int((width - 2 * MARGIN) / CHAR_W)
    return (textwrap.wrap(subtitle, wrap, max_lines=3, placeholder=" ...",
                          break_on_hyphens=False)
            + textwrap.wrap(" ".join(drawn), wrap))


def _figure_key(content):
    """Name the element ids after the content: two figures in a page differ."""
    import zlib  # here, not at the top: only the figure needs it
    return f"tokembed-{zlib.crc32(content.encode('utf-8')):08x}"


def _svg_open(width, height, title, desc, key):
    """Open the SVG: size, viewBox, accessible title and text, arrowhead."""
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" '
        f'aria-labelledby="{key}-title {key}-desc" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="14">',
        _tag("title", title, id=f"{key}-title"),
        _tag("desc", desc, id=f"{key}-desc"),
        f'<defs><marker id="{key}-arrow" viewBox="0 0 10 10" refX="10" '
        'refY="5" markerWidth="8" markerHeight="8" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#333333"/></marker></defs>',
        _tag("rect", width="100%", height="100%", fill="#ffffff"),
        _tag("text", title, x=MARGIN, y=TITLE_Y, font_size=20,
             font_weight="bold")])


def _svg_rows(table, vocab, labels, x, top, key):
    """Yield the headings, then each row: token, ID, cells; an arrow to it."""
    for heading, right in [("token", x["token"]), ("ID", x["id"]),
                           ("in the text", x["label"])][:2 + bool(labels)]:
        yield _tag("text", heading, x=right, y=top - 10, text_anchor="end",
                   font_weight="bold")
    for i, row in enumerate(table):
        y = top + i * (CELL_H + ROW_GAP)
        baseline = y + CELL_H // 2 + TEXT_DROP
        weight = "bold" if i in labels else "normal"
        for label, right in ((vocab[i], x["token"]), (i, x["id"])):
            yield _tag("text", label, x=right, y=baseline, text_anchor="end",
                       font_weight=weight, data_row=i)
        for j, value in enumerate(row):
            left, fill = x["cells"] + j * CELL_W, colour(value)
            yield _tag("rect", x=left, y=y, width=CELL_W, height=CELL_H,
                       fill=fill, class_="cell", data_row=i, data_value=value)
            yield _tag("text", f"{value:.2f}", x=left + CELL_W // 2,
                       y=baseline, text_anchor="middle", fill=_ink(fill),
                       data_row=i)
        if i in labels:
            yield from _svg_pointer(labels[i], i, x, y, len(row), key)


def _svg_pointer(label, i, x, y, width, key):
    """Yield a looked-up row's outline, and its label with an arrow to it."""
    middle = y + CELL_H // 2
    yield _tag("rect", x=x["cells"], y=y, width=width * CELL_W,
               height=CELL_H, fill="none", stroke="#000000", stroke_width=3,
               class_="lookup", data_row=i)
    yield _tag("text", label, x=x["label"], y=middle + TEXT_DROP,
               text_anchor="end", data_row=i)
    yield _tag("line", x1=x["label"] + 8, y1=middle,
               x2=x["label"] + ARROW_W - 14, y2=middle, stroke="#333333",
               stroke_width=1.5, marker_end=f"url(#{key}-arrow)",
               class_="arrow", data_row=i)


def _ink(fill):
    """Choose black or white text, whichever stands out more on fill."""
    def linear(c):  # an sRGB channel, 0 to 1, as light, as WCAG has it
        return c / 12.92 if c <= 10 / 255 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(fill[k:k + 2], 16) / 255) for k in (1, 3, 5))
    light = 0.2126 * r + 0.7152 * g + 0.0722 * b  # luminance
    black, white = (light + 0.05) / 0.05, 1.05 / (light + 0.05)  # contrasts
    return "#ffffff" if white > black else "#000000"


def _svg_legend(left, y, key):
    """Yield the colour scale from -1 to 1 at height y, ticks and a caption."""
    yield (f'<defs><linearGradient id="{key}-scale">' + "".join(
        _tag("stop", offset=f"{k * 25}%", stop_color=colour(k / 2 - 1))
        for k in range(5)) + "</linearGradient></defs>")  # -1, -0.5, ..., 1
    yield _tag("text", "colour scale", x=left - 12, y=y + 12,
               text_anchor="end")
    yield _tag("rect", x=left, y=y, width=LEGEND_W, height=14,
               fill=f"url(#{key}-scale)", stroke="#333333")
    for label, dx in (("-1 purple", 0), ("0 white", LEGEND_W // 2),
                      ("+1 orange", LEGEND_W)):
        yield _tag("text", label, x=left + dx, y=y + 14 + LINE_H - 4,
                   text_anchor="middle")
    yield _tag("text", "thick outline: a row the text looks up", x=left,
               y=y + 14 + 2 * LINE_H)


def _tag(name, text=None, **attributes):
    """Write one SVG element, its text escaped; font_size= is font-size=."""
    from html import escape  # here, not at the top: only the figure needs it
    pairs = "".join(
        f' {key.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
        for key, value in attributes.items())
    if text is None:
        return f"<{name}{pairs}/>"
    return f"<{name}{pairs}>{escape(str(text))}</{name}>"


# --- copying into a lesson -------------------------------------------------------
# Both views of a function are cut from this file's own source with ast: the
# checked view is the function as it stands; the lesson view leaves out its
# check lines, and then whatever only they reached.

def snippet(*names, checked=False):
    """Return paste-ready source for the named functions or constants, each after what it
    needs; checked=True keeps the named functions' check lines, not their helpers'.

    >>> source = snippet("dot")
    >>> [line for line in source.splitlines() if line.startswith("def")]
    ['def dot(u, v):']
    """
    checked = _flag("checked", checked)
    names = _copyable(names)
    about = ("checked view, tokembed.py {}; lesson view: drop --checked"
             if checked else "lesson view, tokembed.py {}; --checked adds checks")
    pieces = _pieces(checked=False)
    if checked:  # the door checks: what the names call takes what it let in
        pieces.update((name, _pieces(checked=True)[name]) for name in names)
    needed = _reach(names, pieces)
    return _snippet_header(names, about, needed) + _joined(needed, pieces) + (
        '\n\nif __name__ == "__main__":  # python3 FILE prints the lesson\n'
        '    lesson()\n') * ("lesson" in names)


def exercise(*names):
    """Return a worksheet: the named functions' bodies to write, with checks for wrong answers.

    >>> print(exercise("dot").splitlines()[-1])
        raise NotImplementedError("write the body of dot")
    """
    import ast  # here, not at the top: only copying needs it
    names, pieces = _copyable(names), _pieces(checked=False)
    for name in names:
        node, text = pieces[name]
        if not isinstance(node, ast.FunctionDef):
            raise ValueError(f"{name} is a constant, so it has no body to write")
        head = text.splitlines()[:node.body[0].end_lineno - node.lineno + 1]
        if name in MISTAKES:  # more examples, into the docstring before its end
            head[-1:] = ["", *("    " + line for line in MISTAKES[name]), head[-1]]
        pieces[name] = (node, "\n".join(head + [
            f'    raise NotImplementedError("write the body of {name}")']))
    needed = _reach(names, pieces)  # the helpers that the bodies would call
    about = ("an exercise, tokembed.py {}: write the bodies, then check them "
             "with python3 -m doctest -v FILE")
    return _snippet_header(names, about, needed) + _joined(needed, pieces)


# Each exercise's checks beyond its doctest: what the classic wrong answer
# gets wrong. A test plants each mistake and sees these fail.
MISTAKES = {
    "lookup": [  # returning the table's own rows, not copies
        ">>> table = [[1.0, 2.0], [3.0, 4.0]]", ">>> rows = lookup(table, [1, 1])",
        ">>> rows[0][0] = 9.0  # a copy: the table keeps its numbers",
        ">>> table, rows[1]", "([[1.0, 2.0], [3.0, 4.0]], [3.0, 4.0])"],
    "lookup_backward": [  # overwriting instead of adding; a padding row learning
        ">>> lookup_backward([[1.0], [2.0]], [0, 0], 2)  # ID 0 twice: 1 + 2", "[[3.0], [0.0]]",
        ">>> lookup_backward([[1.0], [2.0]], [0, 1], 2, padding_idx=0)", "[[0.0], [2.0]]"],
    "softmax": [  # exp of a large score, without taking the largest off first
        ">>> softmax([1000.0, 0.0])", "[1.0, 0.0]"],
    "cosine": [  # a dot product, not divided by both lengths
        ">>> cosine([2.0, 0.0], [3.0, 0.0]), cosine([3.0, 4.0], [-3.0, -4.0])", "(1.0, -1.0)"],
    "one_hot": [  # the 1 one place off, at either end
        ">>> one_hot(0, 3) == [1, 0, 0], one_hot(2, 3) == [0, 0, 1]", "(True, True)"],
    "train_bpe": [  # pairs counted across pieces; no stop when no pair is left
        '>>> train_bpe(["a1a1"], 1)  # the pieces a, 1, a, 1: no pair in any', "[]",
        '>>> train_bpe(["ab"], 5)  # one merge, and then no pair is left', "[(97, 98)]"],
    "encode": [  # str.find: a place in a string, or -1, not an ID
        '>>> encode("late my", ["my", "late"])', "[1, 0]"],
    "bpe_encode": [  # bytes merged across words; the most frequent pair first
        '>>> bpe_encode("a b", [(97, 32)])  # no merge reaches across two words', "[97, 32, 98]",
        '>>> bpe_encode("abcab", [(98, 99), (97, 98)])  # bc was learned first', "[97, 256, 257]"],
}


def _copyable(names):
    """Return the names, each once, if each can be copied; if not, suggest one."""
    odd = [name for name in names if not isinstance(name, str)]
    if odd:  # snippet(["dot"]) said "unhashable type"; exercise(None), worse
        raise TypeError(f"a name to copy must be a str, not "
                        f"{type(odd[0]).__name__}: {_shown(odd[0])}")
    names, alone = list(dict.fromkeys(names)), [n for n in __all__ if n not in _UNCOPYABLE]
    whole = [name for name in names if name in _UNCOPYABLE]
    if whole:
        raise ValueError(f"{whole[0]} reads the whole of tokembed.py, so it cannot be "
                         "copied alone: copy the file instead")
    unknown = [name for name in names if name not in alone]
    if unknown or not names:
        import difflib  # here, not at the top: only this mistake needs it
        import unicodedata  # Python reads a fullwidth ｄｏｔ as dot: NFKC
        plain = unicodedata.normalize("NFKC", unknown[0]).lower() if unknown else ""
        lowered = {name.lower(): name for name in alone}  # VOCAB as vocab
        close = [lowered[name] for name in difflib.get_close_matches(plain, lowered, n=1)]
        problem = (f"cannot copy {_shown(unknown[0])}" if unknown else "name something to copy")
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"{problem}{hint}; --copy with no name lists the names")
    return names


_UNCOPYABLE = ("snippet", "exercise")  # they read this whole file: no copy stands alone


def _pieces(checked):
    """Map each top-level name to (statement, source with comments); parsed once a view."""
    if checked in _PIECES:
        return dict(_PIECES[checked])
    import ast
    import copy  # here, not at the top: only copying needs them
    source = _own_source()
    lines, tree = source.splitlines(), ast.parse(source)
    pieces = {}
    for node in tree.body:
        start = node.lineno - 1
        while start and lines[start - 1].startswith("#"):
            start -= 1
        text = list(enumerate(lines[start:node.end_lineno], start + 1))
        if not checked and isinstance(node, ast.FunctionDef):
            checks = _check_lines(node)
            gone = {n for s in checks for n in range(s.lineno, s.end_lineno + 1)}
            text = [(n, line) for n, line in text if n not in gone]
            node = copy.copy(node)
            node.body = [s for s in node.body if s not in checks]
        pieces.update((name, (node, "\n".join(line for _, line in text))) for name in _bound(node))
    _PIECES[checked] = pieces
    return dict(pieces)


_PIECES = {}  # checked: the pieces of this file, in that view


def _own_source():
    """Return this file's source; refuse where Python did not run it from a file."""
    try:
        with open(globals().get("__file__") or "", encoding="utf-8") as file:
            return file.read()
    except OSError:
        raise ValueError("copying reads tokembed.py's own source, so it needs "
                         "tokembed.py as a file: run python3 tokembed.py --copy ..., "
                         "not the file piped into python3 or given to -c") from None


def _check_lines(node):
    """List a function's opening check lines: checker calls on its arguments, ifs that raise."""
    import ast  # here, not at the top: only copying needs it
    checkers = set(CHECKERS)
    arguments = {arg.arg for arg in node.args.args + node.args.kwonlyargs}
    ours, last = set(globals()) - set(MESSAGES), 0  # this file's, not built-ins
    for k, statement in enumerate(node.body[1:], 1):
        calls = {call.func.id for call in ast.walk(statement)
                 if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)}
        if calls & ours - checkers:
            break
        if (isinstance(statement, (ast.Assign, ast.Expr)) and calls & checkers
                and set(_bound(statement)) <= arguments):
            last = k
        elif not (isinstance(statement, ast.If) and not statement.orelse and
                  all(isinstance(s, ast.Raise) for s in statement.body)):
            break
    return node.body[1:last + 1] if last else []


def _bound(node):
    """List the names a top-level statement defines."""
    import ast  # here, not at the top: only copying needs it
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [alias.asname or alias.name.split(".")[0] for alias in node.names]
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [n.id for target in node.targets for n in ast.walk(target)
                if isinstance(n, ast.Name)]
    return []


def _reach(names, pieces):
    """Return the statements the names need (calls, defaults, doctests), each name last."""
    needed = []
    for name in names:
        found, todo, own = [], [name], pieces[name][0]
        while todo:
            node = pieces[todo.pop()][0]
            if node not in needed and node not in found:
                found.append(node)
                todo += [name for name in _uses(node) if name in pieces]
        needed += sorted((node for node in found if node is not own),
                         key=lambda node: node.lineno) + found[:own in found]
    return needed


def _uses(node, early=False):
    """List the names a statement reads: ever, doctests too, or only when it is defined (early)."""
    import ast
    import doctest  # here, not at the top: only copying needs them
    if early and isinstance(node, ast.FunctionDef):
        parts = node.args.defaults + [d for d in node.args.kw_defaults if d]
    elif early and isinstance(node, ast.ClassDef):
        parts = node.bases
    else:
        documented = isinstance(node, (ast.FunctionDef, ast.ClassDef))
        doc = ast.get_docstring(node) if documented else None
        examples = doctest.DocTestParser().get_examples(doc or "")
        parts = [node] + [ast.parse(example.source) for example in examples]
    loads, stores = set(), set()
    for tree in parts:
        for n in ast.walk(tree):
            if isinstance(n, ast.Name):
                (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
            elif isinstance(n, ast.arg):
                stores.add(n.arg)
            elif isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n is not tree:
                stores.add(n.name)  # a function defined inside, as search's
    return loads - stores


def _joined(needed, pieces):
    """Join the statements: imports first, then in order, constants kept together; PEP 8."""
    import ast  # here, not at the top: only copying needs it
    text = {id(node): source for node, source in pieces.values()}
    imports = sorted((node for node in needed if isinstance(
        node, (ast.Import, ast.ImportFrom))), key=lambda node: node.lineno)
    copy, last = "", None
    for node in imports + [node for node in needed if node not in imports]:
        together = type(node) is type(last) and not isinstance(
            node, ast.FunctionDef) and (isinstance(node, (ast.Import, ast.ImportFrom))
                                        or node.lineno == last.end_lineno + 1)
        around_def = isinstance(node, ast.FunctionDef) or isinstance(last, ast.FunctionDef)
        gap = "\n" if together else "\n\n\n" if around_def else "\n\n"
        copy += gap[1:] if last is None else gap  # under the header's docstring
        copy += text[id(node)]
        last = node
    return copy + "\n"


COPYRIGHT = "Copyright (c) 2026 The tokembed authors. MIT License."


def _snippet_header(names, about, needed):
    """Write a copy's docstring: what, from where, the license, the other view, defaults."""
    import textwrap  # here, not at the top: only copying needs it
    early = sorted({name for node in needed for name in _uses(node, early=True) if name.isupper()})
    notes = [f'"""{", ".join(names)}: {about.format(__version__)}', COPYRIGHT] + [
        f"A default is read once, when its def runs: set {', '.join(early)} "
        "above the defs, not below."] * bool(early)
    kinds = {name: type(globals()[name]).__name__ for name in names
             if not callable(globals()[name])}
    examples = "".join(f"\n\n>>> type({name}).__name__\n{kind!r}" for name, kind in kinds.items())
    if not examples:  # the closing quotes end the last note, within 79 columns
        notes[-1] += '"""'
    text = "\n".join(textwrap.fill(note, 79) for note in notes)
    return text + (f"{examples}\n\"\"\"" if examples else "") + "\n"


def _read_names(words, args):
    """Read --copy's or --exercise's names and build their source; none: list them."""
    if not words:
        import textwrap  # here, not at the top: only this list needs it
        return (textwrap.fill("you can copy: " + ", ".join(
            n for n in __all__ if n not in _UNCOPYABLE), WIDTH) + "\n",)
    if args["view"] == "--exercise":
        return (exercise(*words),)
    return (snippet(*words, checked=bool(args["checked"])),)


@_view("--exercise", ("WORDS",), "print functions with their bodies left to write, one "
       "worksheet; WORDS: their names", _read_names, ("cosine",))
@_view("--copy", ("WORDS", "--checked"), "print paste-ready source; WORDS: functions or "
       "constants to copy", _read_names, ("lookup CORPUS", "search --checked"))
def _print_source(source):
    _print_utf8(source)


# --- the command line ------------------------------------------------------------

# The options a view may take: (metavar, help); a metavar of None is a flag.
OPTIONS = {
    "--seed": ("N", f"seed for the random table, or for training (default: {SEED})"),
    "--d-model": ("N", f"numbers per row, 1 to {MAX_D_MODEL:,} (default: {D_MODEL}); a view works "
                       f"through at most {MAX_NUMBERS:,} numbers, words x d_model for most"),
    "--padding-idx": ("ID", "zero this row after drawing them all, as PyTorch's "
                            "padding_idx does; -1 is the last row"),
    "--svg": ("PATH", "also draw the table as a heatmap (--languages: a chart) into this "
                      "SVG file; --svg - prints it instead of the text"),
    "--checked": (None, "with --copy: keep each function's input checks"),
    "--merges": ("N", f"with --tokens and --bpe: the merges BPE learns (default: "
                      f"{BPE_MERGES}); it stops early when no pair is left"),
    "--vocab": ("VOCAB", "with --tokens, --trace: a real vocabulary, gpt2, cl100k_base "
                         "(GPT-4), o200k_base (GPT-4o) or llama3, kept in $TOKEMBED_CACHE or "
                         "~/.cache/tokembed; the first use of OpenAI's fetches it from "
                         "https://openaipublic.blob.core.windows.net, tiktoken's URL, checked by "
                         "tiktoken's SHA-256: the one download tokembed makes (Llama 3's, "
                         "behind Meta's licence, it never fetches). Or a FILE: a .tiktoken "
                         "file, GPT-2's vocab.bpe, Hugging Face's merges.txt, or a SentencePiece "
                         "BPE .model (Llama 2's, Mistral's)"),
}


def main(argv=None):
    """Run the command line; return 0; 2 after a one-line error; 1 when a pipe's reader left;
    130 after Ctrl-C as the program (given an argv, Ctrl-C goes on up, to stop a loop)."""
    argv = argv if argv is None else _argv(argv)
    if sys.stdout is None:  # started with `>&-`
        return _fail("standard output is closed, so there is nowhere to print")
    if argv is None and hasattr(sys.stdout, "reconfigure"):  # an ASCII terminal
        sys.stdout.reconfigure(errors="backslashreplace")  # escapes a letter
    try:
        status = _run(argv if argv is not None else [  # argv's bytes are UTF-8,
            os.fsencode(arg).decode("utf-8", "surrogateescape")  # whatever the locale
            for arg in sys.argv[1:]])
        sys.stdout.flush()  # a full disk or a closed pipe shows up here, not at exit
    except KeyboardInterrupt:  # Ctrl-C: the program stops quietly, as the shell
        if argv is not None:   # counts it; called from Python, a loop of calls
            raise              # must stop too
        return 130
    except MemoryError:
        return _fail("out of memory: give it a shorter text, or a smaller --d-model")
    except OSError as error:  # standard output failed: a closed pipe, a full disk
        return _lost_output(error)
    return status


def _argv(argv):
    """Return argv as a list of str, as sys.argv[1:] is, read once; or refuse it."""
    odd = isinstance(argv, (str, bytes, bytearray, set, frozenset, dict)) or not hasattr(
        argv, "__iter__")
    argv = argv if odd else list(argv)  # an iterator is used up once, here
    bad = [argv] if odd else [arg for arg in argv if not isinstance(arg, str)]
    if bad:
        why = {str: " (split it first)", set: " (its order is hash order)",
               frozenset: " (its order is hash order)"}.get(type(argv), "") * odd
        raise TypeError(f"argv must be a list of str, as sys.argv[1:] is; got "
                        f"{type(bad[0]).__name__}: {_shown(bad[0])}{why}")
    return argv


def _run(argv):
    """Read the command line and the view's inputs, catching mistakes; then print it."""
    try:
        args = _parse(argv)
        if args["version"]:
            print(f"tokembed.py {__version__}")
            return 0
        view, svg = VIEWS[args["view"]], args["svg"]
        words = _words(args, raw="TEXT" in view.takes)
        _refuse_unused(args, view.takes)
        inputs = view.read(words, args)
        figure = None if svg is None else view.draw(inputs, args)  # the views that take --svg
        if svg not in (None, "-"):
            _refuse_target(svg)
    except SystemExit as leaving:  # argparse has printed the help, or a mistake
        return leaving.code
    except (ValueError, IndexError) as error:
        return _fail(str(error))
    if svg == "-":  # the figure goes where the text would have gone
        _print_utf8(figure)
        return 0
    if svg is not None:
        try:
            write_svg(svg, figure)
        except OSError as error:
            return _fail(f"cannot write the figure to {_short(repr(svg))}: {_reason(error, svg)}")
    view.show(*inputs)
    return 0


def _refuse_unused(args, takes):
    """Refuse WORDS or options the view would ignore, saying which views take the first."""
    words = "TEXT" if "TEXT" in takes else "WORDS"  # TEXT: words, spaces kept
    given = ([words] if args["words"] or args["text"] else []) + [
        flag for flag in OPTIONS if args[_dest(flag)] is not None]
    unused = [flag for flag in given if flag not in takes]
    if unused:
        view = args["view"] or "the lesson view"
        needs = [flag or "the lesson view" for flag, v in VIEWS.items() if unused[0] in v.takes]
        hint = (f"{unused[0]} goes with {' or '.join(needs)}" if 1 <= len(needs) <= 4
                else f"{view} takes {', '.join(takes) or 'nothing more'}")
        raise ValueError(f"{view} does not take {', '.join(unused)} ({hint})")


def _parse(argv):
    """Read the command line into a dict: the view's flag, the WORDS, each option."""
    text = []
    if "--" in argv:  # after --, every word is text, even one that looks like a flag
        argv, text = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    dashes = "\u2013\u2014"  # as word processors write --
    for word in [arg for arg in argv if arg[:1] in dashes and "--" + arg.lstrip(
            dashes + "-") in _flags()][:1]:
        raise ValueError(f"{word} starts with a dash a word processor writes, {word[0]}: "
                         f"type two hyphens, --{word.lstrip(dashes + '-')}")
    if not argv:  # the lesson's view: skip argparse, which doubles the start-up time
        return {"view": None, "words": [], "text": text, "version": None,
                **{_dest(flag): None for flag in OPTIONS}}
    parser = _parser()
    args = vars(parser.parse_intermixed_args(argv))
    args["text"] = text
    for name, flag in [("view", None), ("version", "--version")] + [
            (_dest(flag), flag) for flag in OPTIONS]:
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
    import shutil  # argparse reads the width from $COLUMNS too
    width = max(min(shutil.get_terminal_size().columns, WIDTH) - 2, 20)  # COLUMNS=1: -1
    parser = argparse.ArgumentParser(
        prog="tokembed.py", usage="%(prog)s [options] [VIEW] [WORDS ...]",
        add_help=False, description=_wrapped(HELP_DESCRIPTION, width),
        epilog=_wrapped(HELP_EXAMPLES, width, indent=6),
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(prog, width=width))
    parser.add_argument("words", nargs="*", metavar="WORDS", help=HELP_WORDS)
    options = parser.add_argument_group("options")
    options.add_argument("-h", "--help", action="help", help="show this help and exit")
    options.add_argument("--version", action="append_const", const=True,
                         help="show the version and exit")
    for flag, (metavar, text) in OPTIONS.items():
        kind = dict(metavar=metavar, type=_int_arg if metavar in ("N", "ID") else str,
                    action="append") if metavar else dict(action="append_const", const=True)
        options.add_argument(flag, help=text, **kind)
    views = parser.add_argument_group("VIEW, one at a time").add_mutually_exclusive_group()
    for flag in filter(None, VIEWS):  # None: the lesson's view, which has no flag
        views.add_argument(flag, dest="view", action="append_const", const=flag,
                           help=VIEWS[flag].help)
    parser.error = lambda message: parser.exit(  # a long word in it, cut short
        2, f"tokembed.py: error: {' '.join(map(_short, message.split(' ')))}{_nearest(message)}\n")
    # argparse would hide a failed write of the help: print it where failures show
    parser.print_help = lambda file=None: print(parser.format_help(), end="", file=file)
    return parser


def _nearest(message):
    """Name the flag nearest an unknown one (--tabel, --TOKENS), else where a -text goes."""
    import difflib  # here, not at the top: only this mistake needs it
    typed = message.partition("unrecognized arguments: ")[2].split(" ")[0]
    near = difflib.get_close_matches("--" + typed.lstrip("-").lower(), _flags(), n=1)
    if typed.startswith("-") and near:
        return f" (did you mean {near[0]}? --help lists them all)"
    return " (--help lists the flags; a text that starts with - goes after --, as in " \
        "--tokens -- -hello)" * (typed.startswith("-") or "explicit argument" in message)


def _flags():
    return [flag for flag in [*OPTIONS, *VIEWS, "--help", "--version"] if flag]


def _wrapped(text, width, indent=2):
    """Wrap each line of text to width; a line that starts with spaces keeps them."""
    import textwrap  # here, not at the top: only --help needs it
    lines = []
    for line in text.splitlines():
        lead = line[:len(line) - len(line.lstrip())]
        lines += textwrap.wrap(line.strip(), width, initial_indent=lead,
                               subsequent_indent=lead + " " * (indent if lead else 0),
                               break_on_hyphens=False, break_long_words=False) or [""]
    return "\n".join(lines)


HELP_DESCRIPTION = ("Turn text into token IDs, then into rows of an embedding table, "
                    "as the lesson does. With no flags: the lesson's output.")
HELP_WORDS = (f"the text, in the lesson's vocabulary: {', '.join(VOCAB)} (default: "
              f"{TEXT}); --search reads the training corpus's words instead, --batch "
              "texts split by commas, and --tokens any TEXT, its spaces kept; - reads "
              "them from standard input; after --, every word is text")
HELP_EXAMPLES = "examples:\n" + "\n".join(f"  python3 tokembed.py {line}" for line in [
    "my order is late", "--table --svg table.svg", "--copy lookup > lesson.py"] + [
    f"{flag} {[e for e in view.examples if e and '<' not in e][0]}"  # <pad>: a shell's <
    for flag, view in VIEWS.items() if flag])


def _int_arg(word):
    """Read an option's whole number, or say in a short line why it is not one."""
    import argparse  # here, not at the top: only options need it
    number = _int_of(word)
    if number is None and word.strip().lstrip("+-").replace("_", "").isdigit():
        raise argparse.ArgumentTypeError(
            f"{len(word):,} digits: more than the {MAX_DIGITS:,} this reads")
    if number is None:
        raise argparse.ArgumentTypeError(f"invalid int value: {_short(repr(word))}")
    return number


# --- the edges: standard input, output and error, and the figure's file ----------

def _words(args, raw=False):
    """Return the WORDS or None; a lone '-' reads standard input (raw: as one text)."""
    words, text = args["words"], args["text"]
    if "-" not in words:
        return words + text or None
    if words != ["-"] or text:
        raise ValueError("'-' reads the words from standard input, so give it alone")
    if sys.stdin is None:
        raise ValueError("'-' reads the words from standard input, but it is closed")
    text = _read_stdin()
    if raw:  # one line's end, \n or \r\n, is no part of the text
        return [text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith("\n") else text]
    return text.split()


def _read_stdin():
    """Read standard input as UTF-8, one byte order mark left out; refuse too much."""
    import contextlib  # here, not at the top: only the edges need it
    with contextlib.suppress(AttributeError, OSError, ValueError):  # no file, or Windows
        os.set_blocking(sys.stdin.fileno(), True)  # a non-blocking read() gives None
    try:
        data = getattr(sys.stdin, "buffer", sys.stdin).read(MAX_BYTES + 1)  # or no more
        text = data if isinstance(data, str) or len(data) > MAX_BYTES else (
            data.decode("utf-8"))  # too much is refused below, whole or not
    except OSError as error:
        raise ValueError(f"cannot read standard input: {_reason(error)}") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"standard input is not UTF-8: byte {data[error.start]:#04x} "
                         f"at offset {error.start:,}") from None
    if len(data) > MAX_BYTES or len(text.split()) > MAX_WORDS:
        raise ValueError(f"standard input holds more than {MAX_WORDS:,} words or "
                         f"{MAX_BYTES // 1_000_000} MB; give a shorter text")
    return text[text.startswith("\ufeff"):]


def write_svg(path, svg):
    """Write svg to path as UTF-8, as open() would; refuse an unread pipe.

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_svg(os.path.join(folder, "table.svg"), "<svg/>")
    ...     os.listdir(folder)
    ['table.svg']
    """
    svg = _utf8("svg", svg)  # before the file is opened, and so emptied
    import stat  # here, not at the top: only --svg needs it
    path = os.fsdecode(os.fspath(path))  # a str, from a str, bytes or a Path
    nonblocking, there = getattr(os, "O_NONBLOCK", 0), _stat_of(path)
    if nonblocking and there and stat.S_ISFIFO(there.st_mode):  # not Windows
        handle = os.open(path, os.O_WRONLY | nonblocking)  # no reader: ENXIO
        os.set_blocking(handle, True)  # a reader is there: wait for it
        file = open(handle, "w", encoding="utf-8")
    else:
        file = open(path, "w", encoding="utf-8")
    with file:
        file.write(svg)


def _refuse_target(path):
    """Refuse a figure's path no file can have, this program, or a standard stream."""
    import stat  # here, not at the top: only --svg needs it
    try:
        named = "\x00" not in path and os.fsencode(path) is not None
    except UnicodeEncodeError:  # a lone surrogate that stands for no byte
        named = False
    if not named:
        raise ValueError(f"--svg {_short(ascii(path))} holds a NUL byte, or a lone "
                         "surrogate: no file's name can hold one")
    target = _stat_of(path)
    if path.endswith(os.sep) and not (target and stat.S_ISDIR(target.st_mode)):
        raise ValueError(f"--svg {_short(path)} ends in {os.sep}, so it names a "
                         "folder, and no folder is there: leave the last / off")
    if target is None or stat.S_ISCHR(target.st_mode):  # /dev/null may be all
        return  # nothing there yet, or a device: write_svg writes it or says why
    same = [name for name, file in (
        ("tokembed.py itself", globals().get("__file__")), ("standard input's file", sys.stdin),
        ("standard output", sys.stdout), ("standard error", sys.stderr))
        if (there := _stat_of(file)) and os.path.samestat(there, target)]
    if same and stat.S_ISFIFO(target.st_mode):  # a pipe: no file to overwrite
        raise ValueError(f"--svg {_short(path)} is the pipe of {same[0].split(chr(39))[0]}, not a "
                         f"file: give a file's path, or --svg - to print the figure")
    if same:
        raise ValueError(f"--svg {_short(path)} is {same[0]}: the figure would overwrite it")


def _stat_of(file):
    """Return os.stat of a path or an open stream's file, or None."""
    try:
        if isinstance(file, str):
            return os.stat(file)
        return os.fstat(file.fileno())
    except (OSError, ValueError, AttributeError, TypeError):
        return None


def _reason(error, path=None):
    """Say in a few lowercase words why an OSError happened."""
    import errno, stat  # here, not at the top: only errors need them
    kind = getattr(_stat_of(path) if path else None, "st_mode", 0)
    known = {errno.EISDIR: "is a folder, not a file",
             errno.ENXIO: "nothing is reading it" if stat.S_ISFIFO(kind) else
             "is a socket, not a file" if stat.S_ISSOCK(kind) else None}
    return known.get(getattr(error, "errno", None)) or (
        getattr(error, "strerror", None) or str(error)).lower()


def _lost_output(error):
    """Report that standard output failed; keep Python from failing again at exit."""
    _silence(sys.stdout)  # a broken pipe (into `head`, say): stop quietly
    return 1 if isinstance(error, BrokenPipeError) else _fail(
        f"cannot write the output: {_reason(error)}")


def _silence(stream):
    """Point a stream's file at /dev/null, so that its last flush cannot fail."""
    import contextlib  # here, not at the top: only the edges need it
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no file behind it
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _fail(message):
    """Print one line on standard error, a letter it cannot write escaped; return 2."""
    line = f"tokembed.py: error: {message}"
    try:
        if sys.stderr is not None:
            encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
            line = line.encode(encoding, "backslashreplace").decode(encoding)
            print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, LookupError):  # closed or full: the status says it
        _silence(sys.stderr)
    return 2


def _print_utf8(text):
    """Print text as UTF-8 bytes, whatever standard output's encoding."""
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # a StringIO, as a notebook or a test gives
        print(text, end="")
        return
    sys.stdout.flush()
    binary.write(text.encode("utf-8"))


def _short(word):
    """Cut a long word short for a one-line message: a 100 kB path was echoed."""
    return word if len(word) <= 300 else (f"{word[:200]}... ({len(word):,} characters)")


# --- real vocabularies: a file read once, known by its table; the one network door
# Nothing else touches the network. --vocab NAME reads the cache's file, fetched once,
# whole and checked (Llama 3's never). A file is known by its table, not its name: by
# its SHA-256, or else by that of its ranks as a tiktoken file (so a CRLF copy is known).

# Each named vocabulary: its file in the cache; its path on tiktoken's URL (None: never
# fetched) and the SHA-256 tiktoken pins; the split; its IDs, special and unused ones
# in; how many are special; a model that uses it (tiktoken_ext/openai_public.py and
# MODEL_TO_ENCODING in tiktoken/model.py; Llama 3's from Meta's llama/tokenizer.py, its
# SHA-256 that of meta-llama/Meta-Llama-3-8B's original/tokenizer.model)
OPENAI = "https://openaipublic.blob.core.windows.net/"
Vocabulary = collections.namedtuple("Vocabulary", "file url sha256 pattern size special model")
VOCABULARIES = {
    "gpt2": Vocabulary("vocab.bpe", "gpt-2/encodings/main/vocab.bpe", "1ce1664773c50f3e0cc8"
                       "842619a93edc4624525b728b188a9e0be33b7726adc5", GPT2, 50_257, 1, "GPT-2"),
    "cl100k_base": Vocabulary("cl100k_base.tiktoken", "encodings/cl100k_base.tiktoken", "22"
                              "3921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                              CL100K, 100_277, 5, "GPT-4"),
    "o200k_base": Vocabulary("o200k_base.tiktoken", "encodings/o200k_base.tiktoken", "446a9"
                             "538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
                             O200K, 200_019, 2, "GPT-4o"),
    "llama3": Vocabulary("llama3.tiktoken", None, "82e9d31979e92ab929cd544440f129d9ecd797b6"
                         "9e327f80f17e1c50d5551b55", LLAMA3, 128_256, 256, "Llama 3"),
}
GATED = ("accept Meta's licence at https://huggingface.co/meta-llama/Meta-Llama-3-8B, "
         "download original/tokenizer.model")  # Llama 3's file: where, once asked for
# GPT-2's merges, as ranks, are r50k_base.tiktoken (openai-whisper's gpt2.tiktoken);
# Mistral 7B v0.1's tokenizer.model.v1, as PyPI's mistral-common 1.13.1 ships it
TABLES = {"306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930": "gpt2",
          "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055": "Mistral 7B"}
FETCH_SECONDS = 120  # the whole fetch: 3.6 MB at 30 kB/s, a crowded classroom's share
_READ = {}  # --vocab's NAME or FILE: what it reads as, once a process


def _vocabulary(vocab):
    """Read --vocab once: (label, ranks, split, size, special, path)."""
    if vocab not in _READ:
        named = vocab in VOCABULARIES
        path = _cached(vocab) if named else vocab
        if named and not os.path.exists(path):
            _fetch(vocab, path)
        name, ranks, split = _table(_read_file(path), path)
        if named and name != vocab:  # a cache file that holds another table
            fix = (f"remove it, and --tokens --vocab {vocab} fetches it again" if
                   VOCABULARIES[vocab].url else f"put {VOCABULARIES[vocab].model}'s there")
            raise ValueError(f"{_short(path)} is damaged, not {vocab}'s file: {fix}")
        known, pieces = VOCABULARIES.get(name), [] if split else ranks["pieces"]
        size, special = (known.size, known.special) if known else (len(
            pieces or ranks), sum(kind in (2, 3) for _, _, kind in pieces))  # SentencePiece's
        label = name or os.path.basename(path) + (", split as " + (
            "gpt2" if split == GPT2 else "cl100k_base") + " is" if split else "")
        _READ[vocab] = (label, ranks, known.pattern if known else split, size, special, path)
    return _READ[vocab]


def _table(data, path):
    """Parse a vocabulary file: its table's name or None, ranks, split."""
    import base64, binascii  # here, not at the top: only --vocab needs them
    name, advice = _named(data), ("give a tiktoken file, GPT-2's vocab.bpe or merges.txt, a "
                                  f"SentencePiece .model, or a name: {', '.join(VOCABULARIES)}")
    try:
        lines = data.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as error:  # or SentencePiece's: a protobuf, a piece first
        line, lines = data.count(b"\n", 0, error.start) + 1, None
    if lines is None and data[:1] != b"\n":
        raise ValueError(f"--vocab {_short(path)}: line {line} is not UTF-8; {advice}")
    try:
        if lines is None:
            return name, _sp_model(read_sentencepiece(data)), None
        first = next(filter(None, lines), "")  # a tiktoken file's: a token, a rank
        merged = first.startswith("#version") or not first.rpartition(" ")[2].isdigit()
        if merged and name:  # GPT-2's own, its hash proving it: merge k is token 256 + k
            byte = {letter: b for b, letter in gpt2_bytes().items()}
            ranks = {bytes(map(byte.get, a + b)): 256 + k for k, (a, b) in enumerate(
                map(str.split, filter(None, lines[1:])))}
            ranks.update({bytes([b]): k for k, b in enumerate(gpt2_bytes())})
        elif merged:  # merges of one's own, proven: each merge makes the next token
            tokens = token_bytes(read_merges(lines))
            ranks = dict(zip(tokens, gpt2_ids(range(len(tokens)))))
        else:  # tiktoken's own file is read at once: its hash proves it
            words = data.split()  # a token, its rank, a token, ...
            ranks = dict(zip(map(binascii.a2b_base64, words[::2]), map(int, words[1::2]))
                         ) if name else read_ranks(lines)
        _ranks(ranks)  # each byte a token
    except ValueError as error:
        raise ValueError(f"--vocab {_short(path)}: {error}; {advice}") from None
    if name is None:  # known by its ranks, written as tiktoken writes them
        name = _named(b"".join(b"%s %d\n" % (base64.b64encode(token), rank) for token, rank
                               in sorted(ranks.items(), key=lambda pair: pair[1])))
    return name, ranks, GPT2 if merged else CL100K


def _named(data):
    """Name the vocabulary whose file, or whose ranks as a tiktoken file, data is."""
    import hashlib  # here, not at the top: only --vocab needs it
    digest = hashlib.sha256(data).hexdigest()
    return TABLES.get(digest) or next((name for name, v in VOCABULARIES.items()
                                       if v.sha256 == digest), None)


def _read_file(path):
    """Read a vocabulary's bytes: a regular file of at most MAX_VOCAB bytes."""
    import stat  # here, not at the top: only --vocab needs it
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # a FIFO: refused, not waited on
    try:
        with open(os.open(path, os.O_RDONLY | nonblocking), "rb") as file:
            regular = stat.S_ISREG(os.fstat(file.fileno()).st_mode)
            if regular and nonblocking:
                os.set_blocking(file.fileno(), True)
            data = file.read(MAX_VOCAB + 1) if regular else b""
    except OSError as error:
        raise ValueError(f"cannot read --vocab {_short(path)}: {_reason(error, path)}"
                         f"{_vocab_guess(path) * isinstance(error, FileNotFoundError)}; give "
                         f"a vocabulary's file, or a name: {', '.join(VOCABULARIES)}") from None
    if not regular or len(data) > MAX_VOCAB:
        raise ValueError(f"--vocab {_short(path)} is not a file of at most "
                         f"{MAX_VOCAB // 1_000_000} MB: give a vocabulary's file, "
                         f"or a name: {', '.join(VOCABULARIES)}")
    return data


def _vocab_guess(word):
    """Guess what a mistyped --vocab means: gpt4 is cl100k_base."""
    import difflib  # here, not at the top: only this mistake needs it
    def plain(name):
        return name.lower().replace("-", "").replace(" ", "")
    names = {plain(key): name for name, v in VOCABULARIES.items() for key in (name, v.model)}
    near = difflib.get_close_matches(plain(word), names, n=1, cutoff=0.6)
    return f" (did you mean {names[near[0]]}?)" if near else ""


def _cached(name):
    """Return where the cache keeps a named vocabulary (None: the folder)."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    folder = os.environ.get("TOKEMBED_CACHE") or os.path.join(os.environ.get(
        "LOCALAPPDATA") or (xdg if os.path.isabs(xdg) else os.path.join(
            _user_home(), ".cache")), "tokembed")
    return os.path.join(folder, VOCABULARIES[name].file if name else "")


def _user_home():
    """Return the user's home: $HOME, or the password file's if $HOME is empty."""
    try:
        import pwd  # not on Windows
        return os.environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError):
        return os.path.expanduser("~")


def _home(path):
    """Write a path in the user's home as ~/..., and a long one as its end."""
    home = _user_home()
    path = "~" + path[len(home):] if path.startswith(home + os.sep) else path
    return path if _width(path) <= 60 else "..." + path[-57:]


def _cached_ones():
    """Map each cached vocabulary, none fetched, to (ranks, split) or why."""
    found = {}
    for name in [name for name in VOCABULARIES if os.path.exists(_cached(name))]:
        try:
            found[name] = _vocabulary(name)[1:3]
        except ValueError as error:
            found[name] = str(error)
    return found


def _fetch(name, path):
    """Fetch a named vocabulary into path, whole and checked, or say why not."""
    if VOCABULARIES[name].url is None:
        raise ValueError(f"{name}'s file is not in the cache, and tokembed never fetches "
                         f"it: {GATED}, and save it as {_short(path)}, or give its path")
    import hashlib, http.client, time, urllib.request  # only a fetch needs them
    url, folder, data = OPENAI + VOCABULARIES[name].url, os.path.dirname(path), b""
    try:
        there = os.path.abspath(folder)  # the folder is made once a file goes in; can it be?
        while not os.path.exists(there) and os.path.dirname(there) != there:
            there = os.path.dirname(there)  # a drive that is not there: its root
        if not os.path.isdir(there) or not os.access(there, os.W_OK):
            raise ValueError(f"{_short(there)} is " + ("not a folder" if not os.path.isdir(
                there) else "a folder you cannot write in"))
        deadline = time.monotonic() + FETCH_SECONDS  # read against one clock
        with urllib.request.urlopen(url, timeout=min(30, FETCH_SECONDS)) as answer:
            while chunk := answer.read1(1 << 16):
                data += chunk
                if len(data) > MAX_VOCAB or time.monotonic() > deadline:
                    break
            cut = not chunk and bool(answer.length)  # the server closed too soon
        if len(data) > MAX_VOCAB or chunk or cut:
            raise ValueError(f"it holds more than {MAX_VOCAB:,} bytes" if len(
                data) > MAX_VOCAB else f"it took more than {FETCH_SECONDS} s" if chunk else
                f"the connection was cut after {len(data):,} bytes")
        if hashlib.sha256(data).hexdigest() != VOCABULARIES[name].sha256:
            raise ValueError("it is not the file tiktoken pins: its SHA-256 differs")
        _keep(data, path)
    except http.client.IncompleteRead as error:  # a chunked body, cut
        why = f"the connection was cut after {len(data) + len(error.partial):,} bytes"
    except ValueError as error:  # ours, in our words
        why = str(error)
    except (OSError, http.client.HTTPException) as error:  # the library's, in ours
        why = getattr(error, "reason", error)  # urllib's: a str, or an OSError
        why = _reason(why) if isinstance(why, OSError) else str(why).lower() or type(why).__name__
    else:
        print(f"tokembed.py: fetched {name}, once, from {url}", file=sys.stderr)
        return
    raise ValueError(f"cannot fetch {name} ({' '.join(why.split())}): fetch {url} by hand "
                     f"into {_short(folder)}")


def _keep(data, path):
    """Write a fetched file whole, new under the umask (a class may share a cache):
    a part-file, renamed, with Ctrl-C, SIGTERM and SIGHUP held off."""
    import signal  # here, not at the top: only a fetch needs it
    part, block = f"{path}.{os.getpid()}.part", getattr(signal, "pthread_sigmask", None)
    held = [getattr(signal, s) for s in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, s)]
    before = block(signal.SIG_BLOCK, held) if block else None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as file:
            file.write(data)
        os.replace(part, path)
    finally:
        if os.path.exists(part):  # a full disk: nothing stays
            os.remove(part)
        if block:
            block(signal.SIG_SETMASK, before)


if __name__ == "__main__":
    sys.exit(main())
